package bundle_test

import (
	"math"
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

type zeroRow struct {
	RunID  string     `csv:"run_id"`
	Plain  float64    `csv:"plain"`
	Opt    bundle.Opt `csv:"opt"`
	Count  int64      `csv:"count"`
	Inside struct {
		Deep float64 `csv:"deep"`
	} `csv:"-"`
}

// TestEncodeWritesNoNegativeZero: a negative zero is written as 0, so that everything
// the kit writes reads back under the one number grammar, which refuses "-0".
func TestEncodeWritesNoNegativeZero(t *testing.T) {
	negZero := math.Copysign(0, -1)
	rows := []zeroRow{{RunID: "r1", Plain: negZero, Opt: bundle.Opt(negZero), Count: 0}}
	files, err := bundle.Encode(map[string]any{}, map[string]any{"runs.csv": &rows}, bundle.DataPackage{})
	if err != nil {
		t.Fatal(err)
	}
	if have := string(files["runs.csv"]); have != "run_id,plain,opt,count\nr1,0,0,0\n" {
		t.Fatalf("written %q", have)
	}
	d := bundle.DecodeCSV[zeroRow]("runs.csv", files["runs.csv"], 10)
	if len(d.Errs) > 0 || len(d.Rows) != 1 {
		t.Fatalf("does not read back: %v", d.Errs)
	}
	for _, s := range []string{"-0", "+0", "00", "0x0"} {
		body := "run_id,plain,opt,count\nr1," + s + ",0,0\n"
		if d := bundle.DecodeCSV[zeroRow]("runs.csv", []byte(body), 10); len(d.Errs) != 1 {
			t.Errorf("%q read: %v", s, d.Errs)
		}
		body = "run_id,plain,opt,count\nr1,0,0," + s + "\n"
		if d := bundle.DecodeCSV[zeroRow]("runs.csv", []byte(body), 10); len(d.Errs) != 1 {
			t.Errorf("count %q read: %v", s, d.Errs)
		}
	}
}
