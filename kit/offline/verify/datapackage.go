package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// dataPackage checks a fifo-stall bundle's datapackage.json (see CheckDataPackage).
func (v *verifier) dataPackage() {
	CheckDataPackage(v.res, v.files, bundle.DataFiles, func(name string) bool { return v.ok[name] })
}

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
	problem := func(p Problem) { res.Problems = append(res.Problems, p) }
	body, ok := files[file]
	if !ok {
		res.Notes = append(res.Notes, Problem{File: file,
			Msg: "absent: a bundle written before the kit described its files (this kit's datapackage.json describes its columns, less any noted missing)"})
		return
	}
	if sums, ok := files[bundle.SumsFile]; ok {
		listed := false
		for i, line := range strings.Split(string(sums), "\n") {
			sum, name, ok := parseSumLine(line)
			if !ok || name != file {
				continue
			}
			listed = true
			have := sha256.Sum256(body)
			if h := hex.EncodeToString(have[:]); h != strings.ToLower(sum) {
				problem(Problem{File: file, Column: "SHA-256", Have: h, Want: strings.ToLower(sum), Msg: fmt.Sprintf("%s line %d; %d bytes", bundle.SumsFile, i+1, len(body))})
				return
			}
			res.Counts.Files++
		}
		if !listed {
			problem(Problem{File: file, Msg: "not listed in " + bundle.SumsFile})
		}
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
		_, errs := r.ReadTable(data, maxLineErrors)
		for _, e := range errs {
			msg := e.Msg
			if e.Column != "" {
				msg = fmt.Sprintf("%q: %s", e.Value, e.Msg)
			}
			problem(Problem{File: name, Line: e.Line, Column: e.Column, Msg: msg + " (as " + file + " describes it)"})
		}
	}
}
