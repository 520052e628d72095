package fifostall

import (
	"testing"

	"github.com/logbench/logbench/internal/comparetest"
	"github.com/logbench/logbench/kit/experiment"
)

// TestCompareArchivedGolden compares the committed bundles in every format: the new
// format (results/2026-11-30-vm2), the older one (results/2026-11-30-vm), and a bundle
// against the published figures.
func TestCompareArchivedGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("compares whole archived bundles")
	}
	cases := []struct {
		name      string
		published bool
		sources   [][2]string
	}{
		{"vm2", false, [][2]string{{"fifo-py", "../../../results/2026-11-30-vm2/fifo-py.tar.gz"}, {"fifo-go", "../../../results/2026-11-30-vm2/fifo-go.tar.gz"}}},
		{"vm", false, [][2]string{{"python-vm", "../../../results/2026-11-30-vm/python-2026-11-30-vm.tar.gz"}, {"go-vm", "../../../results/2026-11-30-vm/go-2026-11-30-vm.tar.gz"}}},
		{"vm2-published", true, [][2]string{{"fifo-py", "../../../results/2026-11-30-vm2/fifo-py.tar.gz"}}},
	}
	for _, tc := range cases {
		var sources []experiment.Source
		for _, s := range tc.sources {
			sources = append(sources, comparetest.Archived(t, Experiment, s[0], s[1]))
		}
		warn := comparetest.EveryFormat(t, Experiment, tc.name, sources, tc.published)
		comparetest.Golden(t, "archived-"+tc.name+".warnings.txt", warn)
	}
}
