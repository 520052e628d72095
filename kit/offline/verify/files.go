package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// entries: a bundle holds its own files and nothing else.
func (v *verifier) entries(f *bundle.Files) {
	var extra []string
	for name := range f.Data {
		if !slices.Contains(bundle.Names(), name) {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, e := range append(extra, f.Extra...) {
		v.problem(Problem{File: short(e), Msg: "not a bundle file (a bundle holds exactly " + strings.Join(bundle.Names(), ", ") + ")"})
	}
}

// checksums: SHA256SUMS lists every data file once, and each matches.
func (v *verifier) checksums() {
	body, ok := v.files[bundle.SumsFile]
	if !ok {
		v.problem(Problem{File: bundle.SumsFile, Msg: "missing: nothing can be checked against it"})
		for _, name := range bundle.DataFiles {
			if _, ok := v.files[name]; !ok {
				v.problem(Problem{File: name, Msg: "missing"})
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
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("not `<sha256>  <file>`: %s", short(text))})
		case name == bundle.SumsFile:
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: "lists itself"})
		case !slices.Contains(bundle.Names(), name):
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("lists %s, which is not a bundle file", strconv.Quote(name))})
		case want[name].line > 0:
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("lists %s again (first on line %d)", name, want[name].line)})
		default:
			want[name] = listed{strings.ToLower(sum), n}
		}
	}
	for _, name := range bundle.DataFiles {
		data, present := v.files[name]
		w, isListed := want[name]
		switch {
		case !present && isListed:
			v.problem(Problem{File: name, Msg: fmt.Sprintf("missing (%s line %d lists it)", bundle.SumsFile, w.line)})
		case !present:
			v.problem(Problem{File: name, Msg: "missing, and not listed in " + bundle.SumsFile})
		case !isListed:
			v.problem(Problem{File: name, Msg: "not listed in " + bundle.SumsFile})
		default:
			sum := sha256.Sum256(data)
			if have := hex.EncodeToString(sum[:]); have != w.sum {
				v.problem(Problem{File: name, Column: "SHA-256", Have: have, Want: w.sum, Msg: fmt.Sprintf("%s line %d; %d bytes", bundle.SumsFile, w.line, len(data))})
			} else {
				v.res.Counts.Files++
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

// manifest: it parses, and its schema_version is one this kit reads.
func (v *verifier) manifest() {
	body, ok := v.files[bundle.ManifestFile]
	if !ok {
		return
	}
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		v.problem(jsonProblem(body, err))
		return
	}
	switch {
	case head.SchemaVersion == nil:
		v.problem(Problem{File: bundle.ManifestFile, Column: "schema_version", Msg: "missing"})
		return
	case *head.SchemaVersion != bundle.SchemaVersion:
		v.problem(Problem{File: bundle.ManifestFile, Column: "schema_version", Have: strconv.Itoa(*head.SchemaVersion), Want: strconv.Itoa(bundle.SchemaVersion),
			Msg: "the only version this kit reads"})
		return
	}
	if err := json.Unmarshal(body, &v.manifestBody); err != nil {
		v.problem(jsonProblem(body, err))
		return
	}
	v.ok[bundle.ManifestFile] = true
	v.res.Common = &v.manifestBody.Common
}

func jsonProblem(body []byte, err error) Problem {
	p := Problem{File: bundle.ManifestFile, Msg: "not valid JSON: " + err.Error()}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
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
