package verify

import (
	"strconv"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Rows reads file of files into rows (bundle.DecodeCSV), every line that does not parse
// and every column the file lacks a problem of res; but a column that later names, one a
// kit added after bundles had already been written, reads as absent and is only noted,
// by what added it, so that those bundles still verify. lines are the rows' lines in the
// file; ok says the file is there and whole; absent are the columns of later it lacks.
func Rows[T any](res *Result, files map[string][]byte, file string, rows *[]T, later map[string]string) (lines []int, ok bool, absent map[string]bool) {
	body, ok := files[file]
	if !ok {
		return nil, false, nil
	}
	d := bundle.DecodeCSV[T](file, body, MaxLineErrors)
	for _, e := range d.Errs {
		p := Problem{File: file, Line: e.Line, Column: e.Column, Msg: e.Msg}
		if e.Column != "" && e.Value != e.Column { // the value found, where it is not the column's name
			p.Msg = strconv.Quote(Short(e.Value)) + ": " + e.Msg
		}
		res.Problem(p)
	}
	missing := 0
	for _, col := range d.Missing {
		if why, isLater := later[col]; isLater {
			res.Notes = append(res.Notes, Problem{File: file, Column: col, Msg: "missing: written by a kit before " + why + "; read as absent"})
			if absent == nil {
				absent = map[string]bool{}
			}
			absent[col] = true
			continue
		}
		missing++
		res.Problem(Problem{File: file, Column: col, Msg: "missing column"})
	}
	*rows = d.Rows
	return d.Lines, len(d.Errs) == 0 && missing == 0, absent
}
