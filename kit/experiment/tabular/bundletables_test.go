package tabular_test

import (
	"reflect"
	"testing"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/report"
)

// TestBundleTablesKeepTheBundlesOrder: a table of each bundle in the bundles' order,
// and one table whose rows each name their bundle first, after the table's own rows.
func TestBundleTablesKeepTheBundlesOrder(t *testing.T) {
	type drawn = tabular.Drawn[*tinyParams, TinyRow]
	ds := []drawn{{Label: "a"}, {Label: "b"}}
	each := tabular.TableEach(ds, func(d drawn) report.Table { return report.Table{Caption: d.Label} })
	if want := []report.Table{{Caption: "a"}, {Caption: "b"}}; !reflect.DeepEqual(each, want) {
		t.Errorf("TableEach = %v, want %v", each, want)
	}
	one := tabular.Labelled(ds, report.Table{Header: []string{"bundle", "x"}, Rows: [][]string{{"", "first"}}}, func(d drawn) [][]string {
		return [][]string{{d.Label + "1"}, {d.Label + "2"}}
	})
	if want := [][]string{{"", "first"}, {"a", "a1"}, {"a", "a2"}, {"b", "b1"}, {"b", "b2"}}; !reflect.DeepEqual(one.Rows, want) {
		t.Errorf("Labelled rows = %v, want %v", one.Rows, want)
	}
}

// TestLabelledEachDrawsEveryBundlesTablesOfAKindAsOne: a table of each kind, led by
// the bundle's column, its rows each bundle's in the bundles' order.
func TestLabelledEachDrawsEveryBundlesTablesOfAKindAsOne(t *testing.T) {
	type drawn = tabular.Drawn[*tinyParams, TinyRow]
	ds := []drawn{{Label: "a"}, {Label: "b"}}
	got := tabular.LabelledEach(ds, func(d drawn) []report.Table {
		return []report.Table{
			{Caption: "x of " + d.Label, Header: []string{"x"}, Rows: [][]string{{d.Label + "1"}, {d.Label + "2"}}, Text: 1},
			{Caption: "y", Header: []string{"y", "n"}, Rows: [][]string{{d.Label, "3"}}},
		}
	})
	want := []report.Table{
		{Caption: "x of a", Header: []string{"bundle", "x"}, Rows: [][]string{{"a", "a1"}, {"a", "a2"}, {"b", "b1"}, {"b", "b2"}}, Text: 2},
		{Caption: "y", Header: []string{"bundle", "y", "n"}, Rows: [][]string{{"a", "a", "3"}, {"b", "b", "3"}}, Text: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LabelledEach = %v, want %v", got, want)
	}
	if got := tabular.LabelledEach([]drawn{}, func(drawn) []report.Table { return []report.Table{{}} }); got != nil {
		t.Errorf("no bundle: %v, want none", got)
	}
}
