package tabular

import (
	"reflect"
	"slices"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// AddedBy holds every table of the bundle to the columns kit added (Own.Later, or a
// field's later tag): a bundle whose manifest shows it was written by that kit or a
// later one (because says how) cannot lack them, as a bundle of an earlier kit may.
// The table of runs is checked first, then the others in their declared order.
func (c *Check[P, R]) AddedBy(kit, because string) {
	t := c.t
	tables := []bundle.Table{t.Runs}
	tables[0].Row = reflect.TypeFor[R]()
	for _, f := range t.further(of(c.M.Params())) {
		tables = append(tables, f.Declared())
	}
	for _, table := range tables {
		later := t.later(table.Row)
		var columns []string
		for _, f := range bundle.FieldsOfType(table.Row) {
			if by, ok := later[f.Column]; ok && by == kit {
				columns = append(columns, f.Column)
			}
		}
		slices.Sort(columns)
		verify.Measured(c.Res, table.File, c.Absent[table.File], columns, because)
	}
}
