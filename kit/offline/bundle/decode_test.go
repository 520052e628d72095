package bundle

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"
	"github.com/google/go-cmp/cmp"
)

// gocsvHeader is the header gocsv writes for a row type: Columns must agree with it, or
// the strict reader would refuse what the writer wrote.
func gocsvHeader[T any](t *testing.T) []string {
	t.Helper()
	body, err := gocsv.MarshalBytes(&[]T{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := csv.NewReader(bytes.NewReader(body)).Read()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestColumnsAreTheWritersColumns(t *testing.T) {
	for name, pair := range map[string][2][]string{
		RunsFile:       {Columns[RunRow](), gocsvHeader[RunRow](t)},
		RequestsFile:   {Columns[RequestRow](), gocsvHeader[RequestRow](t)},
		ContainersFile: {Columns[ContainerRow](), gocsvHeader[ContainerRow](t)},
		TimelineFile:   {Columns[TimelineRow](), gocsvHeader[TimelineRow](t)},
		ConditionsFile: {Columns[ConditionRow](), gocsvHeader[ConditionRow](t)},
	} {
		if diff := cmp.Diff(pair[1], pair[0]); diff != "" {
			t.Errorf("%s (-gocsv +Columns):\n%s", name, diff)
		}
	}
}

func TestDecodeCSVReadsWhatSaveWrites(t *testing.T) {
	rows := Derive(sampleRecord())
	body, err := marshalCSV(&rows.Requests)
	if err != nil {
		t.Fatal(err)
	}
	d := DecodeCSV[RequestRow](RequestsFile, body, 10)
	if len(d.Errs) > 0 || len(d.Missing) > 0 {
		t.Fatalf("errs %v, missing %v", d.Errs, d.Missing)
	}
	if diff := cmp.Diff(rows.Requests, d.Rows); diff != "" {
		t.Fatalf("(-written +read):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2, 3, 4, 5}, d.Lines); diff != "" {
		t.Fatalf("lines (-want +have):\n%s", diff)
	}
}

func TestDecodeCSVNamesLineAndColumn(t *testing.T) {
	body := "run_id,series,offset_s,bytes\nr1,read,0.5,4096\nr1,read,x,8192\nr1,read\n\"r1,read,1,1\n"
	d := DecodeCSV[TimelineRow](TimelineFile, []byte(body), 10)
	var have []string
	for _, e := range d.Errs {
		have = append(have, e.Error())
	}
	want := []string{
		`timeline.csv line 3: column offset_s: "x": not a number`,
		`timeline.csv line 4: 2 fields, want 4 (cut short?)`,
		`timeline.csv line 5: not CSV: extraneous or missing " in quoted-field; the rest of the file was not read`,
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Fatalf("(-want +have):\n%s", diff)
	}
	if len(d.Rows) != 1 || d.Lines[0] != 2 {
		t.Fatalf("rows %v lines %v", d.Rows, d.Lines)
	}
	// An absent figure column reads as absent, and is named.
	d2 := DecodeCSV[ConditionRow](ConditionsFile, []byte("api,mode,reader\ngo,none,fast\n"), 10)
	if len(d2.Errs) > 0 || len(d2.Rows) != 1 || d2.Rows[0].P99Ms == d2.Rows[0].P99Ms || !strings.Contains(strings.Join(d2.Missing, ","), "p99_ms") {
		t.Fatalf("%+v", d2)
	}
}

// FuzzDecodeCSV: the strict reader never panics, whatever the file.
func FuzzDecodeCSV(f *testing.F) {
	rows := Derive(sampleRecord())
	runs, _ := marshalCSV(&[]RunRow{rows.Run})
	requests, _ := marshalCSV(&rows.Requests)
	f.Add(runs)
	f.Add(requests)
	f.Add([]byte("run_id,run_id\n"))
	f.Add([]byte("\"\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, d := range []int{
			len(DecodeCSV[RunRow](RunsFile, body, 5).Errs),
			len(DecodeCSV[RequestRow](RequestsFile, body, 5).Errs),
			len(DecodeCSV[ConditionRow](ConditionsFile, body, 5).Errs),
		} {
			if d > 5 {
				t.Fatalf("%d errors kept, at most 5 wanted", d)
			}
		}
	})
}
