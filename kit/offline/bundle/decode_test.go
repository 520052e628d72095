package bundle_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// renamedRow has a column renamed so that one idea has one name in every experiment: it
// is written as api_cpu_cores and was cpu_api_cores in bundles already archived.
type renamedRow struct {
	RunID string     `csv:"run_id"`
	Cores bundle.Opt `csv:"api_cpu_cores" was:"cpu_api_cores"`
}

func TestDecodeCSVReadsARenamedColumnByItsFormerName(t *testing.T) {
	if have := bundle.Columns[renamedRow](); !cmp.Equal(have, []string{"run_id", "api_cpu_cores"}) {
		t.Fatalf("columns %v: the writer writes today's name alone", have)
	}
	for _, body := range []string{"run_id,api_cpu_cores\nr1,0.5\n", "run_id,cpu_api_cores\nr1,0.5\n"} {
		d := bundle.DecodeCSV[renamedRow]("runs.csv", []byte(body), 10)
		if len(d.Errs) > 0 || len(d.Missing) > 0 || len(d.Rows) != 1 || d.Rows[0].Cores != 0.5 {
			t.Errorf("%q: rows %v, errs %v, missing %v", body, d.Rows, d.Errs, d.Missing)
		}
	}
	d := bundle.DecodeCSV[renamedRow]("runs.csv", []byte("run_id,cpu_api_cores,api_cpu_cores\nr1,0.5,0.5\n"), 10)
	if len(d.Errs) != 1 || !strings.Contains(d.Errs[0].Msg, "named twice") {
		t.Errorf("a column under its old and new names at once: %v, want named twice", d.Errs)
	}
}
