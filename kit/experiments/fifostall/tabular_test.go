package fifostall_test

import (
	"reflect"
	"testing"

	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/internal/fifostalltest"
)

// TestTheTabularDeclarationDescribesTheBundleAsBefore: its data package is fifo-stall's,
// name and all (logbench-fifo-stall-bundle), and its files are in the order they were.
func TestTheTabularDeclarationDescribesTheBundleAsBefore(t *testing.T) {
	if have := fifostall.Tabular.DataPackage().Name; have != "logbench-fifo-stall-bundle" {
		t.Errorf("data package %q, want logbench-fifo-stall-bundle as before", have)
	}
	if have, want := fifostall.Tabular.Info().Layout, fifostalltest.Names(); !reflect.DeepEqual(have, want) {
		t.Errorf("layout %v, want %v", have, want)
	}
}
