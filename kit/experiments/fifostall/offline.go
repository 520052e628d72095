package fifostall

import (
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Layout is the bundle's files in archive order.
func (Experiment) Layout() []string { return schema.Names() }

// Verify checks every file, checksum and figure of a bundle (schema.Verify).
func (Experiment) Verify(files *bundle.Files) *verify.Result { return schema.Verify(files) }
