package experiments_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// results are the archived bundles of the kit's own runs.
const results = "../../results/"

// open reads an archived bundle and checks that it verifies as it is.
func open(t *testing.T, archive string) *bundle.Files {
	t.Helper()
	files, err := bundle.OpenArchive(results + archive)
	if err != nil {
		t.Fatal(err)
	}
	if res := verifyFiles(t, files); !res.OK() {
		t.Fatalf("%s does not verify as archived: %v", archive, res.Problems)
	}
	return files
}

func verifyFiles(t *testing.T, files *bundle.Files) *verify.Result {
	t.Helper()
	exp, err := experiments.Of(files)
	if err != nil {
		t.Fatal(err)
	}
	return exp.Verify(files)
}

// setCell writes value into column of the data row (0 the first) of a CSV file.
func setCell(t *testing.T, body []byte, column string, row int, value string) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	at := slices.Index(recs[0], column)
	if at < 0 || row+1 >= len(recs) {
		t.Fatalf("no column %s or row %d", column, row)
	}
	recs[row+1][at] = value
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(recs)
	return buf.Bytes()
}

func TestVerifyRefusesInfinitiesInArchivedBundles(t *testing.T) {
	for _, tc := range []struct {
		archive, file, column string
		row                   int
	}{
		{"2026-11-30-vm2/fifo-go.tar.gz", "conditions.csv", "p99_ms", 0},
		{"2026-11-30-vm2/fifo-go.tar.gz", "runs.csv", "p99_ms", 3},
		{"2026-11-30-vm2/fifo-go.tar.gz", "requests.csv", "latency_ms", 17},
		// Without a datapackage.json: the CSV reader alone must refuse.
		{"2026-11-30-vm/go-2026-11-30-vm.tar.gz", "conditions.csv", "p99_ms", 0},
		{"2026-11-30-vm/go-2026-11-30-vm.tar.gz", "runs.csv", "p99_ms", 3},
		{"2026-11-30-vm/go-2026-11-30-vm.tar.gz", "requests.csv", "latency_ms", 17},
		{"2026-11-30-vm2/qps-final.tar.gz", "runs.csv", "requests_per_s", 0},
		{"2026-11-30-vm2/qps-final.tar.gz", "conditions.csv", "requests_per_s", 0},
		{"2026-11-30-vm2/qps-final.tar.gz", "runs.csv", "latency_p99_ms", 1},
		{"2026-11-30-vm2/lc-final.tar.gz", "trials.csv", "cpu_ns_per_line", 2},
		{"2026-11-30-vm2/lc-final.tar.gz", "conditions.csv", "ns_per_line", 0},
	} {
		files := open(t, tc.archive)
		original := files.Data[tc.file]
		for _, spelling := range []string{"-inf", "-Inf", "+Inf", "inf", "infinity", "-Infinity", "INF", "NaN", "nan", "1e999"} {
			if strings.HasPrefix(tc.archive, "2026-11-30-vm2/lc-final") && spelling == "NaN" {
				continue // the line-cost schema spells a missing figure NaN
			}
			t.Run(tc.archive+"/"+tc.file+"/"+tc.column+"="+spelling, func(t *testing.T) {
				files.Data[tc.file] = setCell(t, original, tc.column, tc.row, spelling)
				forgery.Resum(files)
				exp, _ := experiments.Of(files)
				res := exp.Verify(files)
				if res.OK() {
					t.Fatalf("verified: %s", res.Summary())
				}
				found := false
				for _, p := range res.Problems {
					found = found || p.File == tc.file && (strings.Contains(p.String(), "finite") || strings.Contains(p.String(), "not a number") || strings.Contains(p.String(), "out of range"))
				}
				if !found {
					t.Errorf("no problem names %s as not finite: %v", tc.file, res.Problems)
				}
			})
		}
		files.Data[tc.file] = original
	}
}
