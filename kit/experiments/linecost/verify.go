package linecost

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gocarina/gocsv"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Layout is the bundle's files in archive order: the data files, datapackage.json (which
// a bundle written before the kit described its files lacks), SHA256SUMS last.
func (Experiment) Layout() []string {
	return append(slices.Clone(DataFiles), DataPackageFile, bundle.SumsFile)
}

// Verify checks every file, checksum and figure of a line-cost bundle: each trial's
// checks are made again (every written line against the kit's regeneration of it),
// each run's verdict from its trials, and conditions.csv is derived again from the
// rows and must be equal, value for value.
func (Experiment) Verify(files *bundle.Files) *verify.Result {
	res, _ := check(files)
	return res
}

// bundleOf is the bundle a verification of this experiment read.
func bundleOf(res *verify.Result) (*Bundle, error) {
	if b, ok := res.Own.(*Bundle); ok && b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("%s: not verified as a %s bundle", res.Name, Name)
}

type checker struct {
	res   *verify.Result
	files map[string][]byte
	ok    map[string]bool
}

func (c *checker) problem(p verify.Problem) { c.res.Problems = append(c.res.Problems, p) }

// check verifies files and returns the bundle as read (nil when the files could not be
// read far enough).
func check(f *bundle.Files) (*verify.Result, *Bundle) {
	c := &checker{res: &verify.Result{Name: f.Name}, files: f.Data, ok: map[string]bool{}}
	layout := Experiment{}.Layout()
	var extra []string
	for name := range f.Data {
		if !slices.Contains(layout, name) {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, e := range append(extra, f.Extra...) {
		c.problem(verify.Problem{File: e, Msg: "not a bundle file (a line-cost bundle holds exactly " + strings.Join(layout, ", ") + ")"})
	}
	c.checksums()

	b := &Bundle{}
	if body, ok := f.Data[bundle.ManifestFile]; ok {
		if err := json.Unmarshal(body, &b.Manifest); err != nil {
			c.problem(verify.Problem{File: bundle.ManifestFile, Msg: "does not parse: " + err.Error()})
		} else {
			c.ok[bundle.ManifestFile] = true
			c.res.Common = &b.Manifest.Common
			m := b.Manifest
			if m.Experiment != Name {
				c.problem(verify.Problem{File: bundle.ManifestFile, Column: "experiment", Have: strconv.Quote(m.Experiment), Want: strconv.Quote(Name)})
			}
			if m.SchemaVersion != bundle.SchemaVersion {
				c.problem(verify.Problem{File: bundle.ManifestFile, Column: "schema_version", Have: fmt.Sprint(m.SchemaVersion), Want: fmt.Sprint(bundle.SchemaVersion)})
			}
		}
	}
	c.table(RunsFile, &b.Runs)
	c.table(TrialsFile, &b.Trials)
	c.table(ConditionsFile, &b.Conditions)
	verify.CheckDataPackage(c.res, c.files, DataFiles, func(name string) bool { return c.ok[name] })
	if !c.ok[bundle.ManifestFile] || !c.ok[RunsFile] || !c.ok[TrialsFile] {
		return c.res, nil
	}
	c.rows(b)
	if c.ok[ConditionsFile] {
		c.conditions(b)
	}
	m := b.Manifest.Common
	verified := 0
	for _, r := range b.Runs {
		if r.Verified {
			verified++
		}
	}
	if m.RunsCompleted != len(b.Runs) {
		c.problem(verify.Problem{File: bundle.ManifestFile, Column: "runs_completed", Have: fmt.Sprint(m.RunsCompleted), Want: fmt.Sprint(len(b.Runs)), Msg: "rows of " + RunsFile})
	}
	if m.RunsVerified != verified {
		c.problem(verify.Problem{File: bundle.ManifestFile, Column: "runs_verified", Have: fmt.Sprint(m.RunsVerified), Want: fmt.Sprint(verified), Msg: "verified rows of " + RunsFile})
	}
	c.res.Counts.Runs, c.res.Counts.Verified, c.res.Counts.Conditions = len(b.Runs), verified, len(b.Conditions)
	c.res.Described = fmt.Sprintf("%d runs (%d verified), %d trials, %d conditions", len(b.Runs), verified, len(b.Trials), len(b.Conditions))
	c.res.Own = b
	return c.res, b
}

// checksums: SHA256SUMS lists every data file once, and each matches; it may list
// datapackage.json, whose sum verify.CheckDataPackage checks.
func (c *checker) checksums() {
	body, ok := c.files[bundle.SumsFile]
	if !ok {
		c.problem(verify.Problem{File: bundle.SumsFile, Msg: "missing: nothing can be checked against it"})
		return
	}
	listed := map[string]string{}
	for i, text := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
		sum, name, ok := strings.Cut(text, "  ")
		if _, err := hex.DecodeString(sum); !ok || len(sum) != 64 || err != nil {
			c.problem(verify.Problem{File: bundle.SumsFile, Line: i + 1, Msg: "not `<sha256>  <file>`"})
			continue
		}
		if name == DataPackageFile {
			continue // verify.CheckDataPackage checks its sum
		}
		if _, twice := listed[name]; twice || !slices.Contains(DataFiles, name) {
			c.problem(verify.Problem{File: bundle.SumsFile, Line: i + 1, Msg: "lists " + strconv.Quote(name) + " again, or a file that is not the bundle's"})
			continue
		}
		listed[name] = strings.ToLower(sum)
	}
	for _, name := range DataFiles {
		data, present := c.files[name]
		want, isListed := listed[name]
		switch {
		case !present:
			c.problem(verify.Problem{File: name, Msg: "missing"})
		case !isListed:
			c.problem(verify.Problem{File: name, Msg: "not listed in " + bundle.SumsFile})
		default:
			sum := sha256.Sum256(data)
			if have := hex.EncodeToString(sum[:]); have != want {
				c.problem(verify.Problem{File: name, Column: "SHA-256", Have: have, Want: want, Msg: bundle.SumsFile})
			} else {
				c.res.Counts.Files++
			}
		}
	}
}

func (c *checker) table(name string, rows any) {
	body, ok := c.files[name]
	if !ok {
		return
	}
	if err := gocsv.UnmarshalBytes(body, rows); err != nil {
		c.problem(verify.Problem{File: name, Msg: "does not parse: " + err.Error()})
		return
	}
	c.ok[name] = true
}

// rows makes every trial's checks and every run's verdict again.
func (c *checker) rows(b *Bundle) {
	p := b.Manifest.Parameters
	byRun := map[string]int{}
	for i, r := range b.Runs {
		key := "run " + r.RunID
		if _, twice := byRun[r.RunID]; twice {
			c.problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Msg: "the run is listed twice"})
		}
		byRun[r.RunID] = i
		if !contains(p.Languages, r.Language) || !contains(p.Ways, r.Way) || r.Round < 1 || r.Round > p.Rounds {
			c.problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Msg: fmt.Sprintf("%s/%s round %d is not a condition of the manifest", r.Language, r.Way, r.Round)})
		}
	}
	trialsOf := make([][]TrialRow, len(b.Runs))
	for i, t := range b.Trials {
		line, key := i+2, fmt.Sprintf("run %s trial %d", t.RunID, t.Trial)
		ri, known := byRun[t.RunID]
		if !known {
			c.problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Msg: "no such run in " + RunsFile})
			continue
		}
		r := b.Runs[ri]
		if t.Language != r.Language || t.Way != r.Way || t.Round != r.Round {
			c.problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Msg: "language, way or round differ from the run's"})
		}
		if r.LineFormat == lc.LineFormat && t.Lines != p.LinesOf(t.Way) {
			c.problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Column: "lines", Have: fmt.Sprint(t.Lines), Want: fmt.Sprint(p.LinesOf(t.Way)), Msg: "the manifest's lines per trial"})
		}
		c.same(TrialsFile, line, key, t, CheckTrial(t), "recomputed from the trial's counts and the kit's own lines")
		trialsOf[ri] = append(trialsOf[ri], t)
	}
	for i, r := range b.Runs {
		key := "run " + r.RunID
		if r.Verified && r.LineFormat != lc.LineFormat {
			c.problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Column: "line_format", Have: strconv.Quote(r.LineFormat), Want: strconv.Quote(lc.LineFormat)})
		}
		if r.Verified && len(trialsOf[i]) != p.Trials {
			c.problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Msg: fmt.Sprintf("verified with %d trials in %s, the manifest asks %d", len(trialsOf[i]), TrialsFile, p.Trials)})
		}
		want := r
		want.Verified = false
		c.same(RunsFile, i+2, key, r, FinishRun(want, trialsOf[i]), "recomputed from its trials in "+TrialsFile)
	}
}

// conditions: conditions.csv is what Figures derives from the rows.
func (c *checker) conditions(b *Bundle) {
	pub, err := LoadPublished()
	if err != nil {
		c.problem(verify.Problem{File: ConditionsFile, Msg: err.Error()})
		return
	}
	want := Figures(b.Manifest.Parameters, b.Runs, b.Trials, pub)
	if len(want) != len(b.Conditions) {
		c.problem(verify.Problem{File: ConditionsFile, Have: fmt.Sprintf("%d rows", len(b.Conditions)), Want: fmt.Sprintf("%d rows", len(want)), Msg: "a row per language and way of the manifest"})
		return
	}
	for i := range want {
		c.same(ConditionsFile, i+2, b.Conditions[i].Language+"/"+b.Conditions[i].Way, b.Conditions[i], want[i], "recomputed from "+RunsFile+" and "+TrialsFile)
	}
}

// same reports every column in which have differs from want (NaN equals NaN).
func (c *checker) same(file string, line int, key string, have, want any, why string) {
	hv, wv := reflect.ValueOf(have), reflect.ValueOf(want)
	for i := range hv.NumField() {
		a, b := hv.Field(i).Interface(), wv.Field(i).Interface()
		if fa, ok := a.(float64); ok {
			fb := b.(float64)
			if fa == fb || math.IsNaN(fa) && math.IsNaN(fb) {
				continue
			}
		} else if a == b {
			continue
		}
		col := hv.Type().Field(i).Tag.Get("csv")
		c.problem(verify.Problem{File: file, Line: line, Key: key, Column: col, Have: fmt.Sprint(a), Want: fmt.Sprint(b), Msg: why})
	}
}
