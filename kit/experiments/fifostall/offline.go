package fifostall

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Layout is the bundle's files in archive order.
func (Experiment) Layout() []string { return schema.Names() }

// Verify checks every file, checksum and figure of a bundle (schema.Verify), and the
// record of reproduce --precision against the figures.
func (e Experiment) Verify(files *bundle.Files) *verify.Result {
	res := schema.Verify(files)
	experiment.CheckPrecision(res, func() int { return schema.Of(res).Manifest.Parameters.Rounds }, e.Figures)
	return res
}
