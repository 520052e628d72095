package schema

import (
	"slices"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Name is the experiment's name, which its manifests carry (a manifest written before
// the kit had several experiments names none, and is this one's).
const Name = "fifo-stall"

// Names are the fifo-stall bundle's own file names, in the order an archive holds them:
// the data files, the optional ones (datapackage.json), SHA256SUMS.
func Names() []string {
	return append(append(slices.Clone(DataFiles), bundle.OptionalFiles...), bundle.SumsFile)
}
