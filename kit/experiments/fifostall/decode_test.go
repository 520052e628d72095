package fifostall_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"
	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// These tests read this experiment's tables through the bundle's strict CSV reader
// (bundle.DecodeCSV): the reader itself knows no experiment, and its own tests keep to
// row types of their own.

// gocsvHeader is the header gocsv writes for a row type: bundle.Columns must agree with it, or
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
		fifostall.RunsFile:       {bundle.Columns[fifostall.RunRow](), gocsvHeader[fifostall.RunRow](t)},
		fifostall.RequestsFile:   {bundle.Columns[fifostall.RequestRow](), gocsvHeader[fifostall.RequestRow](t)},
		fifostall.ContainersFile: {bundle.Columns[fifostall.ContainerRow](), gocsvHeader[fifostall.ContainerRow](t)},
		fifostall.TimelineFile:   {bundle.Columns[fifostall.TimelineRow](), gocsvHeader[fifostall.TimelineRow](t)},
		fifostall.ConditionsFile: {bundle.Columns[fifostall.ConditionRow](), gocsvHeader[fifostall.ConditionRow](t)},
	} {
		if diff := cmp.Diff(pair[1], pair[0]); diff != "" {
			t.Errorf("%s (-gocsv +bundle.Columns):\n%s", name, diff)
		}
	}
}

func TestDecodeCSVReadsWhatSaveWrites(t *testing.T) {
	rows := fifostalltest.New(fifostalltest.Options{Rounds: 1}).Runs[0]
	body, err := gocsv.MarshalBytes(&rows.Requests)
	if err != nil {
		t.Fatal(err)
	}
	d := bundle.DecodeCSV[fifostall.RequestRow](fifostall.RequestsFile, body, 10)
	if len(d.Errs) > 0 || len(d.Missing) > 0 {
		t.Fatalf("errs %v, missing %v", d.Errs, d.Missing)
	}
	if diff := cmp.Diff(rows.Requests, d.Rows); diff != "" {
		t.Fatalf("(-written +read):\n%s", diff)
	}
	if len(d.Lines) != len(rows.Requests) || d.Lines[0] != 2 {
		t.Fatalf("lines %v for %d requests", d.Lines, len(rows.Requests))
	}
}

func TestDecodeCSVNamesLineAndColumn(t *testing.T) {
	body := "run_id,series,offset_s,bytes\nr1,read,0.5,4096\nr1,read,x,8192\nr1,read\n\"r1,read,1,1\n"
	d := bundle.DecodeCSV[fifostall.TimelineRow](fifostall.TimelineFile, []byte(body), 10)
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
	d2 := bundle.DecodeCSV[fifostall.ConditionRow](fifostall.ConditionsFile, []byte("api,mode,reader\ngo,none,fast\n"), 10)
	if len(d2.Errs) > 0 || len(d2.Rows) != 1 || d2.Rows[0].P99Ms == d2.Rows[0].P99Ms || !strings.Contains(strings.Join(d2.Missing, ","), "p99_ms") {
		t.Fatalf("%+v", d2)
	}
}

// FuzzDecodeCSV: the strict reader never panics, whatever the file.
func FuzzDecodeCSV(f *testing.F) {
	rows := fifostalltest.New(fifostalltest.Options{Rounds: 1}).Runs[0]
	runs, _ := gocsv.MarshalBytes(&[]fifostall.RunRow{rows.Run})
	requests, _ := gocsv.MarshalBytes(&rows.Requests)
	f.Add(runs)
	f.Add(requests)
	f.Add([]byte("run_id,run_id\n"))
	f.Add([]byte("\"\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, d := range []int{
			len(bundle.DecodeCSV[fifostall.RunRow](fifostall.RunsFile, body, 5).Errs),
			len(bundle.DecodeCSV[fifostall.RequestRow](fifostall.RequestsFile, body, 5).Errs),
			len(bundle.DecodeCSV[fifostall.ConditionRow](fifostall.ConditionsFile, body, 5).Errs),
		} {
			if d > 5 {
				t.Fatalf("%d errors kept, at most 5 wanted", d)
			}
		}
	})
}
