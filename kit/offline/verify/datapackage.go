package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// CheckDataPackage checks a bundle's datapackage.json, whichever experiment wrote it,
// into res: listed in SHA256SUMS and matching it, a Data Package this kit reads, saying
// of every file and column what the kit says of it (want, the package the experiment
// writes: see sameAsTheKits), naming every one of dataFiles, and describing every CSV
// file truly: its header is the schema's fields in order and every value casts to its
// field's type (or is a missing value where that is allowed). parsed says which files
// the experiment's own reading took without a problem; a file that did not parse has
// its problems already, and the package is checked against the files that did. A
// bundle written before the kit wrote one has none: a note, not a problem.
//
// The experiment's checksum check must let SHA256SUMS list datapackage.json; its sum is
// checked here, and counted in res.Counts.Files when it matches.
func CheckDataPackage(res *Result, files map[string][]byte, dataFiles []string, want bundle.DataPackage, parsed func(name string) bool) {
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
	sameAsTheKits(res, files, pkg, want)
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

// sameAsTheKits checks that a bundle's data package says what the kit's own (want)
// says of every file and column it describes: a package that lies to other readers (a
// unit changed from s to ms, a type from number to string, an allowed value added) is
// a problem even where the files still cast to it.
//
// The rule, so that every bundle an earlier kit wrote still verifies and no such lie
// does: compared exactly are the package's profile and name; each resource's name,
// profile, format, media type and encoding, found by its path; each schema's missing
// values and primary key; and each field's unit, format and enumerated values, the
// field found by its name or by a name it had before (a `was` tag). Not compared are
// titles and descriptions (the kit rewords them; they are prose, not data). Allowed to
// differ, each in the one direction an earlier kit wrote: a resource or a field the
// package lacks (a file or column added since: the file's header must then lack it
// too, which CheckTable sees); foreign keys absent (earlier kits wrote none); a field
// typed integer that the kit now types number (every integer is one); a field required
// that the kit no longer requires (a column that never was missing). Everything else
// that differs, and every resource or field the kit does not describe, is a problem.
func sameAsTheKits(res *Result, files map[string][]byte, have, want bundle.DataPackage) {
	const file = bundle.DataPackageFile
	at := func(where, what, got, expected string) {
		res.Problem(Problem{File: file, Column: Short(where), Have: Short(got), Want: Short(expected), Msg: what + " differs from what the kit writes"})
	}
	if have.Profile != want.Profile {
		at("profile", "the package's profile", have.Profile, want.Profile)
	}
	if have.Name != want.Name {
		at("name", "the package's name", have.Name, want.Name)
	}
	seen := map[string]bool{}
	for _, r := range have.Resources {
		if seen["path "+r.Path] || seen["name "+r.Name] {
			res.Problem(Problem{File: file, Column: Short(r.Path), Msg: "a resource described twice (by its path or its name): readers would take either"})
			continue
		}
		seen["path "+r.Path], seen["name "+r.Name] = true, true
		w, ok := want.Resource(r.Path)
		if !ok {
			res.Problem(Problem{File: file, Column: Short(r.Path), Msg: "describes a file the kit does not write"})
			continue
		}
		for _, c := range [][3]string{{"name", r.Name, w.Name}, {"profile", r.Profile, w.Profile}, {"format", r.Format, w.Format},
			{"mediatype", r.MediaType, w.MediaType}, {"encoding", r.Encoding, w.Encoding}} {
			if c[1] != c[2] {
				at(r.Path+": "+c[0], "the resource's "+c[0], c[1], c[2])
			}
		}
		sameSchema(res, r.Path, r.Schema, w.Schema, at)
	}
	// A file the bundle has, that the kit describes, is described: a package cannot
	// leave out what it would have to tell the truth about.
	for _, w := range want.Resources {
		if _, present := files[w.Path]; present && !seen["path "+w.Path] {
			res.Problem(Problem{File: file, Column: Short(w.Path), Msg: "the bundle has this file and the package does not describe it"})
		}
	}
}

// sameSchema compares one resource's table schema with the kit's (see sameAsTheKits).
func sameSchema(res *Result, path string, have, want *bundle.Schema, at func(where, what, got, expected string)) {
	switch {
	case have == nil && want == nil:
		return
	case have == nil || want == nil:
		at(path+": schema", "whether the resource is a table", fmt.Sprint(have != nil), fmt.Sprint(want != nil))
		return
	}
	if !slices.Equal(have.MissingValues, want.MissingValues) {
		at(path+": missingValues", "the missing values", strings.Join(have.MissingValues, ","), strings.Join(want.MissingValues, ","))
	}
	if !slices.Equal(have.PrimaryKey, want.PrimaryKey) {
		at(path+": primaryKey", "the primary key", strings.Join(have.PrimaryKey, ","), strings.Join(want.PrimaryKey, ","))
	}
	if len(have.ForeignKeys) > 0 && !slices.EqualFunc(have.ForeignKeys, want.ForeignKeys, sameForeignKey) {
		at(path+": foreignKeys", "the foreign keys", fmt.Sprint(have.ForeignKeys), fmt.Sprint(want.ForeignKeys))
	}
	matched := map[string]string{} // the kit's field -> the bundle's name for it
	for _, f := range have.Fields {
		where := path + ": " + f.Name
		i := slices.IndexFunc(want.Fields, func(w bundle.SchemaField) bool { return w.Name == f.Name || slices.Contains(w.Former, f.Name) })
		if i < 0 {
			res.Problem(Problem{File: bundle.DataPackageFile, Column: Short(where), Msg: "describes a column the kit does not write"})
			continue
		}
		w := want.Fields[i]
		if other, twice := matched[w.Name]; twice {
			res.Problem(Problem{File: bundle.DataPackageFile, Column: Short(where), Msg: fmt.Sprintf("the column %s again (as %s): readers would take either", w.Name, other)})
			continue
		}
		matched[w.Name] = f.Name
		if f.Unit != w.Unit {
			at(where+": unit", "the column's unit", f.Unit, w.Unit)
		}
		if f.Type != w.Type && !(f.Type == "integer" && w.Type == "number") {
			at(where+": type", "the column's type", f.Type, w.Type)
		}
		if f.Format != w.Format {
			at(where+": format", "the column's format", f.Format, w.Format)
		}
		var hc, wc bundle.Constraints
		if f.Constraints != nil {
			hc = *f.Constraints
		}
		if w.Constraints != nil {
			wc = *w.Constraints
		}
		if !slices.Equal(hc.Enum, wc.Enum) {
			at(where+": enum", "the column's allowed values", strings.Join(hc.Enum, ","), strings.Join(wc.Enum, ","))
		}
		if wc.Required && !hc.Required {
			at(where+": required", "whether the column may be missing", "may be missing", "required")
		}
	}
}

func sameForeignKey(a, b bundle.ForeignKey) bool {
	return slices.Equal(a.Fields, b.Fields) && a.Reference.Resource == b.Reference.Resource && slices.Equal(a.Reference.Fields, b.Reference.Fields)
}

// MaxLineErrors bounds the parse problems reported per file: past that, one more says
// how many were left out.
const MaxLineErrors = 20
