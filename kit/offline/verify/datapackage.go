package verify

import (
	"fmt"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// CheckDataPackage checks a bundle's datapackage.json, whichever experiment wrote it,
// into res: listed in SHA256SUMS and matching it, a Data Package this kit reads, naming
// every one of dataFiles, and describing every CSV file truly: its header is the
// schema's fields in order and every value casts to its field's type (or is a missing
// value where that is allowed). parsed says which files the experiment's own reading
// took without a problem; a file that did not parse has its problems already, and the
// package is checked against the files that did. A bundle written before the kit wrote
// one has none: a note, not a problem.
//
// The experiment's checksum check must let SHA256SUMS list datapackage.json; its sum is
// checked here, and counted in res.Counts.Files when it matches.
func CheckDataPackage(res *Result, files map[string][]byte, dataFiles []string, parsed func(name string) bool) {
	const file = bundle.DataPackageFile
	problem := res.Problem
	body, ok := files[file]
	if !ok {
		res.Notes = append(res.Notes, Problem{File: file,
			Msg: "absent: a bundle written before the kit described its files (this kit's datapackage.json describes its columns, less any noted missing)"})
		return
	}
	if _, ok := files[bundle.SumsFile]; ok && !listed(res, files, file, body) {
		return
	}
	pkg, err := bundle.ParseDataPackage(body)
	if err != nil {
		problem(Problem{File: file, Msg: err.Error()})
		return
	}
	for _, name := range dataFiles {
		r, ok := pkg.Resource(name)
		if !ok {
			problem(Problem{File: file, Msg: "describes no resource " + name})
			continue
		}
		data, present := files[name]
		if r.Schema == nil || !present || !parsed(name) {
			continue
		}
		errs := r.CheckTable(data, MaxLineErrors)
		for _, e := range errs {
			msg := e.Msg
			if e.Column != "" {
				msg = fmt.Sprintf("%q: %s", e.Value, e.Msg)
			}
			problem(Problem{File: name, Line: e.Line, Column: e.Column, Msg: msg + " (as " + file + " describes it)"})
		}
	}
}

// MaxLineErrors bounds the parse problems reported per file: past that, one more says
// how many were left out.
const MaxLineErrors = 20
