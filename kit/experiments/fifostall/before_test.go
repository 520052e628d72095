package fifostall_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/internal/fifostalltest"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestTheBundleIsWhatItWasBeforeThePlugIn feeds the raw results recorded by the kit
// before experiments were plug-ins (testdata/before/records.json) through the plug-in,
// and compares the bundle with the one that kit wrote from them (testdata/before/bundle):
// every CSV file byte for byte, the manifest key for key but the experiment's name,
// which it now records.
func TestTheBundleIsWhatItWasBeforeThePlugIn(t *testing.T) {
	body, err := os.ReadFile("testdata/before/records.json")
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct {
		Manifest fifostall.Manifest    `json:"manifest"`
		Records  []fifostall.RunRecord `json:"records"`
	}
	if err := json.Unmarshal(body, &recorded); err != nil {
		t.Fatal(err)
	}
	mp := recorded.Manifest.Parameters
	p, err := fifostall.Tabular.Plan(&mp, mp.Rounds)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Target(experiment.Env{Platform: mp.Platform}); err != nil {
		t.Fatal(err)
	}
	b := p.Bundle()
	common := b.Common()
	*common = recorded.Manifest.Common
	common.Experiment = fifostall.Name
	for _, rec := range recorded.Records {
		result, err := json.Marshal(rec.Result)
		if err != nil {
			t.Fatal(err)
		}
		run := experiment.Run{ID: rec.RunID, Condition: fifostall.Cond{rec.API, string(rec.Mode), rec.Reader},
			Round: rec.Round, Position: rec.Position, Started: rec.Started, Wall: rec.Wall,
			Pod: experiment.PodResult{Result: result, Exits: rec.Exits}, Failure: rec.Failure}
		if !b.Measured(run) {
			t.Fatalf("run %s: not measured", rec.RunID)
		}
		b.Add(run)
	}
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range fifostalltest.DataFiles {
		want, err := os.ReadFile(filepath.Join("testdata/before/bundle", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == bundle.ManifestFile {
			var have, was map[string]any
			json.Unmarshal(files[name], &have)
			json.Unmarshal(want, &was)
			delete(have, "experiment")
			if d := cmp.Diff(was, have); d != "" {
				t.Errorf("manifest.json differs (-before +now):\n%s", d)
			}
			continue
		}
		if added := addedColumns[name]; len(added) > 0 {
			sameButAdded(t, name, files[name], want, added)
			continue
		}
		if !bytes.Equal(files[name], want) {
			t.Errorf("%s differs from the bundle written before the plug-in (%d bytes now, %d before)", name, len(files[name]), len(want))
		}
	}
}

// addedColumns are the columns the kit added since that bundle was written: the trust
// of each run and condition (attempts redone, host noise, resolution), each
// container's process limits as it read them, and the p99 over runs with its interval.
// Nothing else may differ.
var addedColumns = map[string][]string{
	fifostall.ContainersFile: {"nofile_limit", "nproc_limit", "pids_max"},
	fifostall.RunsFile:       {"attempt", "superseded", "host_steal_pct", "host_cpu_pressure_pct", "host_noisy"},
	fifostall.ConditionsFile: {"runs_trusted", "runs_superseded", "runs_noisy", "p99_resolved", "p99_run_mean_ms", "p99_run_ci_low_ms", "p99_run_ci_high_ms"},
}

// sameButAdded compares a CSV file with the one written before: the same columns once
// exactly the added ones are taken out, in any order (a reader finds a column by its
// name, and a row type that embeds the kit's columns has them where it embeds them),
// and the same fields.
func sameButAdded(t *testing.T, name string, now, before []byte, added []string) {
	t.Helper()
	have, err := csv.NewReader(bytes.NewReader(now)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	was, err := csv.NewReader(bytes.NewReader(before)).ReadAll()
	if err != nil {
		t.Fatalf("%s (before): %v", name, err)
	}
	var dropped, kept []string
	for _, col := range have[0] {
		if slices.Contains(added, col) {
			dropped = append(dropped, col)
		} else {
			kept = append(kept, col)
		}
	}
	if !slices.Equal(dropped, added) {
		t.Errorf("%s: added columns %v, want exactly %v", name, dropped, added)
	}
	if !slices.Equal(slices.Sorted(slices.Values(kept)), slices.Sorted(slices.Values(was[0]))) {
		t.Fatalf("%s: columns %v besides the added ones, before %v", name, kept, was[0])
	}
	var keep []int // the place of each column of the file written before
	for _, col := range was[0] {
		keep = append(keep, slices.Index(have[0], col))
	}
	if len(have) != len(was) {
		t.Fatalf("%s: %d lines, %d before", name, len(have), len(was))
	}
	for l := range have {
		var row []string
		for _, i := range keep {
			row = append(row, have[l][i])
		}
		if !slices.Equal(row, was[l]) {
			t.Errorf("%s line %d differs from the bundle written before the plug-in:\n now    %q\n before %q", name, l+1, row, was[l])
		}
	}
}
