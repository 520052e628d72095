package linecost

import (
	"bytes"
	"encoding/csv"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// missingSpellings are how a line-cost bundle writes a figure that has no value: empty,
// as the kit writes it now and its data package declares, or "NaN", as bundles written
// before missing figures were empty cells spell it (some are archived); any other
// spelling of a NaN is not one.
var missingSpellings = map[string]bool{"": true, legacyMissing: true}

// legacyMissing is how bundles written before missing figures were empty cells spell
// one.
const legacyMissing = "NaN"

// emptyLegacyMissing rewrites every legacyMissing field of the figure columns (bundle.Opt)
// of a table whose rows are row as the empty field the kit writes now, so that a bundle
// already archived reads with today's types; body comes back as it was when it holds no
// such field or does not parse (the reader then says why).
func emptyLegacyMissing(body []byte, row reflect.Type) []byte {
	if !bytes.Contains(body, []byte(legacyMissing)) {
		return body
	}
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(recs) == 0 {
		return body
	}
	figure := map[string]bool{}
	for _, f := range reflect.VisibleFields(row) {
		if f.Type == reflect.TypeFor[bundle.Opt]() {
			name, _, _ := strings.Cut(f.Tag.Get("csv"), ",")
			figure[name] = true
		}
	}
	changed := false
	for _, rec := range recs[1:] {
		for i, s := range rec {
			if s == legacyMissing && i < len(recs[0]) && figure[recs[0][i]] {
				rec[i], changed = "", true
			}
		}
	}
	if !changed {
		return body
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	if err := w.WriteAll(recs); err != nil {
		return body
	}
	return out.Bytes()
}

// infinities reports every non-finite figure of a parsed table (a pointer to a slice of
// row structs, in the file's order): the CSV reader takes "inf", "-Inf", "infinity"
// and "nan" as numbers, and no column of a line-cost bundle may hold an infinity, nor a
// NaN spelled other than as its schema's missing value.
func (c *checker) infinities(name string, rows any) bool {
	var raw [][]string
	if recs, err := csv.NewReader(bytes.NewReader(c.files[name])).ReadAll(); err == nil && len(recs) > 0 {
		raw = recs
	}
	spelled := func(line int, col string) (string, bool) {
		if raw == nil || line-1 >= len(raw) {
			return "", false
		}
		for i, h := range raw[0] {
			if h == col && i < len(raw[line-1]) {
				return raw[line-1][i], true
			}
		}
		return "", false
	}
	v := reflect.ValueOf(rows).Elem()
	ok := true
	for i := range v.Len() {
		row := v.Index(i)
		for j := range row.NumField() {
			f := row.Field(j)
			if f.Kind() != reflect.Float64 && f.Kind() != reflect.Float32 {
				continue
			}
			x := f.Float()
			col := row.Type().Field(j).Tag.Get("csv")
			switch {
			case math.IsInf(x, 0):
				c.problem(verify.Problem{File: name, Line: i + 2, Column: col, Have: strconv.FormatFloat(x, 'g', -1, 64), Msg: "not a finite number"})
				ok = false
			case math.IsNaN(x):
				if s, found := spelled(i+2, col); found && !missingSpellings[s] {
					c.problem(verify.Problem{File: name, Line: i + 2, Column: col, Have: strconv.Quote(s), Msg: "not a finite number (a missing figure is left empty, or NaN in bundles written before)"})
					ok = false
				}
			}
		}
	}
	return ok
}

// legacyThrottledNs is the time throttled as bundles written before named it, in ns;
// today's column is cpu_throttled_ms, fifo-stall's name and unit.
const legacyThrottledNs = "throttled_ns"

// currentColumns gives the bundle's tables with each column a bundle written before
// named otherwise under today's name (its `was` tag), and throttled_ns as
// cpu_throttled_ms, its values converted; files that need no change are shared.
func currentColumns(files map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for name, body := range files {
		out[name] = body
	}
	for name, row := range map[string]reflect.Type{RunsFile: reflect.TypeFor[RunRow](), TrialsFile: reflect.TypeFor[TrialRow](), ConditionsFile: reflect.TypeFor[ConditionRow]()} {
		if body, ok := files[name]; ok {
			out[name] = renameLegacy(body, row)
		}
	}
	return out
}

// renameLegacy rewrites body's header from former column names to today's, and
// throttled_ns's values to ms; body comes back as it was when nothing is renamed or it
// does not parse (the reader then says why).
func renameLegacy(body []byte, row reflect.Type) []byte {
	was := map[string]string{}
	for _, f := range reflect.VisibleFields(row) {
		name, _, _ := strings.Cut(f.Tag.Get("csv"), ",")
		for _, old := range strings.Fields(f.Tag.Get("was")) {
			was[old] = name
		}
	}
	if _, ok := row.FieldByName("ThrottledMs"); ok {
		was[legacyThrottledNs] = "cpu_throttled_ms"
	}
	header, _, _ := bytes.Cut(body, []byte("\n"))
	renamed := false
	for _, col := range strings.Split(strings.TrimSuffix(string(header), "\r"), ",") {
		if _, ok := was[col]; ok {
			renamed = true
		}
	}
	if !renamed {
		return body
	}
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(recs) == 0 {
		return body
	}
	for i, col := range recs[0] {
		now, ok := was[col]
		if !ok {
			continue
		}
		recs[0][i] = now
		if col != legacyThrottledNs {
			continue
		}
		for _, rec := range recs[1:] {
			if i >= len(rec) || rec[i] == "" {
				continue
			}
			// ns to ms as the kit computes it now, so that a figure read back is the one
			// it would write.
			ns, err := strconv.ParseInt(rec[i], 10, 64)
			if err != nil {
				continue // left as it is: the reader refuses it, or takes it as ms
			}
			rec[i] = strconv.FormatFloat(float64(ns)/1e6, 'f', -1, 64)
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	if err := w.WriteAll(recs); err != nil {
		return body
	}
	return out.Bytes()
}
