package fifostall_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
	num "github.com/logbench/logbench/kit/offline/number"
)

// FuzzVerifyTakesOnlyTheRecomputedFigure writes one fuzzed field into a figure of a real
// bundle (a recomputed one of conditions.csv or runs.csv, or a raw latency of
// requests.csv), writes SHA256SUMS anew, and verifies: a bundle that still verifies
// must hold a finite number there, equal to what was written before (within
// num.Rel) for a recomputed figure. No spelling of an infinity may stand for a
// figure.
func FuzzVerifyTakesOnlyTheRecomputedFigure(f *testing.F) {
	files := tiny(f)
	for _, s := range []string{"-inf", "-Inf", "+Inf", "infinity", "NaN", "1e999", "0", "1", ""} {
		for which := range uint8(3) {
			f.Add(which, s)
		}
	}
	targets := []struct{ file, column string }{
		{fifostall.ConditionsFile, "p99_ms"},
		{fifostall.RunsFile, "p99_ms"},
		{fifostall.RequestsFile, "latency_ms"},
	}
	f.Fuzz(func(t *testing.T, which uint8, field string) {
		target := targets[int(which)%len(targets)]
		data := map[string][]byte{}
		for k, v := range files {
			data[k] = v
		}
		body, before := setField(t, data[target.file], target.column, field)
		data[target.file] = body
		data[bundle.SumsFile] = sums(data)
		res := fifostall.Tabular.Verify(&bundle.Files{Name: "fuzz", Data: data})
		if !res.OK() {
			return
		}
		x, err := num.Parse(field)
		if err != nil {
			if field == before {
				return
			}
			t.Fatalf("%s %s = %q verified", target.file, target.column, field)
		}
		if target.file != fifostall.RequestsFile {
			if y, _ := num.Parse(before); !num.Same(x, y) {
				t.Fatalf("%s %s = %q verified, recomputed %q", target.file, target.column, field, before)
			}
		}
	})
}

// setField writes value into column of the first data row, returning the file and the
// value it replaced.
func setField(t *testing.T, body []byte, column, value string) ([]byte, string) {
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%v", err)
	}
	at := slices.Index(recs[0], column)
	before := recs[1][at]
	recs[1][at] = value
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(recs)
	return buf.Bytes(), before
}

func sums(data map[string][]byte) []byte {
	var names []string
	for name := range data {
		if name != bundle.SumsFile {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		s := sha256.Sum256(data[name])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(s[:]), name)
	}
	return []byte(b.String())
}
