package experiments_test

import (
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/number"
)

// TestVerifyRefusesNumbersOtherReadersReadOtherwise: a field that Go's reader took but
// that other CSV readers read as another value or not at all (a hexadecimal float, an
// underscore, a '+', a negative zero, an underflow to 0, a leading zero) is a problem
// naming the file and why, in a number column and an integer column, with and without
// a datapackage.json.
func TestVerifyRefusesNumbersOtherReadersReadOtherwise(t *testing.T) {
	spellings := map[string]error{
		"0x1p3": number.ErrNotPlain, "1_0": number.ErrNotPlain, "+5": number.ErrNotPlain, "007": number.ErrNotPlain, ".5": number.ErrNotPlain,
		"-0": number.ErrNegativeZero, "1e-400": number.ErrUnderflow,
	}
	for _, tc := range []struct {
		archive, file, column string
		row                   int
		integer               bool
	}{
		{"2026-11-30-vm2/fifo-go.tar.gz", "runs.csv", "p99_ms", 3, false},
		{"2026-11-30-vm2/fifo-go.tar.gz", "runs.csv", "requests", 3, true},
		{"2026-11-30-vm2/fifo-go.tar.gz", "requests.csv", "latency_ms", 17, false},
		{"2026-11-30-vm/go-2026-11-30-vm.tar.gz", "runs.csv", "p99_ms", 3, false},
		{"2026-11-30-vm2/qps-final.tar.gz", "runs.csv", "requests_per_s", 0, false},
		{"2026-11-30-vm2/qps-final.tar.gz", "runs.csv", "status_2xx", 0, true},
		{"2026-11-30-vm2/lc-final.tar.gz", "trials.csv", "cpu_ns_per_line", 2, false},
		{"2026-11-30-vm2/lc-final.tar.gz", "trials.csv", "lines", 2, true},
		{"2026-12-01-vm/your-api-stdlib.tar.gz", "runs.csv", "requests_per_s", 0, false},
	} {
		files := open(t, tc.archive)
		original := files.Data[tc.file]
		for spelling, want := range spellings {
			if tc.integer && want == number.ErrUnderflow {
				continue // no exponent in an integer column: refused as not an integer
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
					found = found || p.File == tc.file && strings.Contains(p.String(), want.Error())
				}
				if !found {
					t.Errorf("no problem of %s says %q: %v", tc.file, want, res.Problems)
				}
			})
		}
		files.Data[tc.file] = original
	}
}
