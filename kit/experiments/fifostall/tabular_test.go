package fifostall

import (
	"reflect"
	"testing"

	"github.com/logbench/logbench/internal/fifostall/schematest"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
)

// TestTheTabularDeclarationDescribesTheBundleAsBefore: its data package is fifo-stall's,
// name and all (logbench-fifo-stall-bundle), and its files are in the order they were.
func TestTheTabularDeclarationDescribesTheBundleAsBefore(t *testing.T) {
	if have, want := Tabular.DataPackage(), schema.NewDataPackage(); !reflect.DeepEqual(have, want) || have.Name != "logbench-fifo-stall-bundle" {
		t.Errorf("data package %q, want %q as before", have.Name, want.Name)
	}
	if have, want := Tabular.Info().Layout, schematest.Names(); !reflect.DeepEqual(have, want) {
		t.Errorf("layout %v, want %v", have, want)
	}
}
