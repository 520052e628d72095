package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// dataPackage checks datapackage.json: listed in SHA256SUMS and matching it, a Data
// Package this kit reads, naming every data file, and describing every CSV file truly:
// its header is the schema's fields in order and every value casts to its field's
// type (or is a missing value where that is allowed). A bundle written before the kit
// wrote one has none: a note, not a problem.
//
// SHA256SUMS lists it as it lists the data files; checksums() lets it be listed, and its
// sum is checked here.
func (v *verifier) dataPackage() {
	body, ok := v.files[bundle.DataPackageFile]
	if !ok {
		v.res.Notes = append(v.res.Notes, Problem{File: bundle.DataPackageFile,
			Msg: "absent: a bundle written before the kit described its files (this kit's datapackage.json describes its columns, less any noted missing)"})
		return
	}
	const file = bundle.DataPackageFile
	if sums, ok := v.files[bundle.SumsFile]; ok {
		listed := false
		for i, line := range strings.Split(string(sums), "\n") {
			sum, name, ok := parseSumLine(line)
			if !ok || name != file {
				continue
			}
			listed = true
			have := sha256.Sum256(body)
			if h := hex.EncodeToString(have[:]); h != strings.ToLower(sum) {
				v.problem(Problem{File: file, Column: "SHA-256", Have: h, Want: strings.ToLower(sum), Msg: fmt.Sprintf("%s line %d; %d bytes", bundle.SumsFile, i+1, len(body))})
				return
			}
			v.res.Counts.Files++
		}
		if !listed {
			v.problem(Problem{File: file, Msg: "not listed in " + bundle.SumsFile})
		}
	}
	pkg, err := bundle.ParseDataPackage(body)
	if err != nil {
		v.problem(Problem{File: file, Msg: err.Error()})
		return
	}
	for _, name := range bundle.DataFiles {
		r, ok := pkg.Resource(name)
		if !ok {
			v.problem(Problem{File: file, Msg: "describes no resource " + name})
			continue
		}
		// A file that did not parse has its problems already; the package is checked
		// against the files that did.
		data, present := v.files[name]
		if r.Schema == nil || !present || !v.ok[name] {
			continue
		}
		_, errs := r.ReadTable(data, maxLineErrors)
		for _, e := range errs {
			msg := e.Msg
			if e.Column != "" {
				msg = fmt.Sprintf("%q: %s", e.Value, e.Msg)
			}
			v.problem(Problem{File: name, Line: e.Line, Column: e.Column, Msg: msg + " (as " + file + " describes it)"})
		}
	}
}
