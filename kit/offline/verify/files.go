package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Entries checks that a bundle holds its own files (names, in archive order) and
// nothing else.
func Entries(res *Result, f *bundle.Files, names []string) {
	var extra []string
	for name := range f.Data {
		if !slices.Contains(names, name) {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, e := range append(extra, f.Extra...) {
		res.Problem(Problem{File: Short(e), Msg: "not a bundle file (a " + res.Experiment + " bundle holds exactly " + strings.Join(names, ", ") + ")"})
	}
}

// Checksums checks that SHA256SUMS lists every one of dataFiles once, and that each
// matches; it may also list the files of names that are not data files (the data
// package), which their own checks look up in it.
func Checksums(res *Result, files map[string][]byte, names, dataFiles []string) {
	body, ok := files[bundle.SumsFile]
	if !ok {
		res.Problem(Problem{File: bundle.SumsFile, Msg: "missing: nothing can be checked against it"})
		for _, name := range dataFiles {
			if _, ok := files[name]; !ok {
				res.Problem(Problem{File: name, Msg: "missing"})
			}
		}
		return
	}
	type listed struct {
		sum  string
		line int
	}
	want := map[string]listed{}
	lines := strings.Split(string(body), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, text := range lines {
		n := i + 1
		sum, name, ok := parseSumLine(text)
		switch {
		case !ok:
			res.Problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("not `<sha256>  <file>`: %s", Short(text))})
		case name == bundle.SumsFile:
			res.Problem(Problem{File: bundle.SumsFile, Line: n, Msg: "lists itself"})
		case !slices.Contains(names, name):
			res.Problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("lists %s, which is not a bundle file", strconv.Quote(Short(name)))})
		case want[name].line > 0:
			res.Problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("lists %s again (first on line %d)", name, want[name].line)})
		default:
			want[name] = listed{strings.ToLower(sum), n}
		}
	}
	for _, name := range dataFiles {
		data, present := files[name]
		w, isListed := want[name]
		switch {
		case !present && isListed:
			res.Problem(Problem{File: name, Msg: fmt.Sprintf("missing (%s line %d lists it)", bundle.SumsFile, w.line)})
		case !present:
			res.Problem(Problem{File: name, Msg: "missing, and not listed in " + bundle.SumsFile})
		case !isListed:
			res.Problem(Problem{File: name, Msg: "not listed in " + bundle.SumsFile})
		default:
			sum := sha256.Sum256(data)
			if have := hex.EncodeToString(sum[:]); have != w.sum {
				res.Problem(Problem{File: name, Column: "SHA-256", Have: have, Want: w.sum, Msg: fmt.Sprintf("%s line %d; %d bytes", bundle.SumsFile, w.line, len(data))})
			} else {
				res.Counts.Files++
			}
		}
	}
}

// parseSumLine reads one line as `sha256sum` writes it: 64 hex digits, a space, a
// space or '*' (binary mode), the name.
func parseSumLine(text string) (sum, name string, ok bool) {
	if len(text) < 67 || text[64] != ' ' || text[65] != ' ' && text[65] != '*' {
		return "", "", false
	}
	sum, name = text[:64], text[66:]
	if _, err := hex.DecodeString(sum); err != nil {
		return "", "", false
	}
	return sum, name, true
}

// Manifest checks that the manifest parses, that its schema_version is one this kit
// reads, and decodes it into into; it says whether it could, and on success records
// the common part of the manifest in res. It is every experiment's one reading of a
// manifest, and a strict one (bundle.DecodeStrict): a key twice, two keys that differ
// only in case, a key in another case than its field's, or a field the experiment's
// manifest does not have is one problem, and nothing of the manifest is believed.
func Manifest(res *Result, files map[string][]byte, into any, common func() *bundle.Common) bool {
	body, ok := files[bundle.ManifestFile]
	if !ok {
		return false
	}
	// Duplicate and case-variant keys first: until they are refused, which value the
	// schema_version below is depends on the reader.
	if err := bundle.CheckJSONKeys(body); err != nil {
		res.Problem(JSONProblem(body, err))
		return false
	}
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		res.Problem(JSONProblem(body, err))
		return false
	}
	switch {
	case head.SchemaVersion == nil:
		res.Problem(Problem{File: bundle.ManifestFile, Column: "schema_version", Msg: "missing"})
		return false
	case *head.SchemaVersion != bundle.SchemaVersion:
		res.Problem(Problem{File: bundle.ManifestFile, Column: "schema_version", Have: strconv.Itoa(*head.SchemaVersion), Want: strconv.Itoa(bundle.SchemaVersion),
			Msg: "the only version this kit reads"})
		return false
	}
	if err := bundle.DecodeStrict(body, into); err != nil {
		res.Problem(JSONProblem(body, err))
		return false
	}
	res.Common = common()
	Engine(res, res.Common)
	return true
}

// JSONProblem names where a JSON document failed to decode.
func JSONProblem(body []byte, err error) Problem {
	p := Problem{File: bundle.ManifestFile, Msg: "not valid JSON: " + Short(err.Error())}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var strict *bundle.JSONError
	switch {
	case errors.As(err, &strict):
		p.Line, p.Column = lineAt(body, strict.Offset), Short(strict.Path)
		p.Msg = "refused: " + strict.Msg
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		p.Msg = "not valid JSON: it ends before its value does"
	case errors.As(err, &syn):
		p.Line = lineAt(body, syn.Offset)
	case errors.As(err, &typ):
		p.Line, p.Column = lineAt(body, typ.Offset), typ.Field
		p.Msg = fmt.Sprintf("a JSON %s where the schema has %s", typ.Value, typ.Type)
	}
	return p
}

func lineAt(body []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(body)))
	return 1 + strings.Count(string(body[:offset]), "\n")
}

// Begin opens the verification of a bundle of the named experiment: its result, with
// the archive's entries held to layout and its checksums to dataFiles, the first
// checks every experiment makes.
func Begin(f *bundle.Files, experiment string, layout, dataFiles []string) *Result {
	res := &Result{Name: f.Name, Experiment: experiment}
	Entries(res, f, layout)
	Checksums(res, f.Data, layout, dataFiles)
	return res
}

// ManifestOf reads the manifest as Manifest does, and holds it to the experiment
// named: a manifest of another experiment is a problem, and is not believed.
func ManifestOf(res *Result, files map[string][]byte, into any, common func() *bundle.Common, experiment string) bool {
	if !Manifest(res, files, into, common) {
		return false
	}
	if have := common().Experiment; have != experiment {
		res.Problem(Problem{File: bundle.ManifestFile, Column: "experiment", Have: strconv.Quote(Short(have)), Want: strconv.Quote(experiment)})
		return false
	}
	return true
}
