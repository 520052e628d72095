package fifostall_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/internal/manifestfuzz"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// FuzzManifest: no manifest.json, whatever its bytes, makes verify, compare, report or
// archive of an archived bundle panic, or work without bound (see manifestfuzz). The
// seeds under testdata/fuzz/FuzzManifest are the bundle's manifest edited where a
// reader could break: keys twice or in two cases, numbers huge, negative or past each
// parameter's cap, unknown values, deep nesting, long strings.
//
// The bundle is the archived fifo-go cut to one mode (oneMode): all fourteen
// conditions take a second an input, one mode's two a tenth, and a manifest drives
// the same code through either.
func FuzzManifest(f *testing.F) {
	base := manifestfuzz.LoadFiles(f, oneMode(f, "../../../results/2026-11-30-vm2/fifo-go.tar.gz", "json-sync"))
	f.Add(base.Manifest())
	f.Fuzz(base.Run)
}

// oneMode is the archived fifo-stall bundle at path with the runs and conditions of
// mode alone, its manifest saying so (the mode, the runs planned, completed, verified
// and redone), SHA256SUMS written again. Every kept row is the archive's: each
// condition's figures come from its own runs only.
func oneMode(tb testing.TB, path, mode string) *bundle.Files {
	tb.Helper()
	f := forgery.Open(tb, path)
	runs := forgery.Read(tb, f, fifostall.RunsFile)
	col := func(t *forgery.Table, name string) int {
		i := slices.Index(t.Header, name)
		if i < 0 {
			tb.Fatalf("no column %s in %v", name, t.Header)
		}
		return i
	}
	kept := map[string]bool{}
	var verified, superseded int
	runs.Rows = slices.DeleteFunc(runs.Rows, func(r []string) bool {
		if r[col(runs, "mode")] != mode {
			return true
		}
		kept[r[col(runs, "run_id")]] = true
		verified += count(r[col(runs, "verified")])
		superseded += count(r[col(runs, "superseded")])
		return false
	})
	if len(kept) == 0 {
		tb.Fatalf("%s has no run of mode %s", path, mode)
	}
	runs.Write(f, fifostall.RunsFile)
	for _, name := range []string{fifostall.RequestsFile, fifostall.ContainersFile, fifostall.TimelineFile} {
		t := forgery.Read(tb, f, name)
		t.Rows = slices.DeleteFunc(t.Rows, func(r []string) bool { return !kept[r[col(t, "run_id")]] })
		t.Write(f, name)
	}
	conds := forgery.Read(tb, f, fifostall.ConditionsFile)
	conds.Rows = slices.DeleteFunc(conds.Rows, func(r []string) bool { return r[col(conds, "mode")] != mode })
	conds.Write(f, fifostall.ConditionsFile)

	d := json.NewDecoder(bytes.NewReader(f.Data[bundle.ManifestFile]))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		tb.Fatal(err)
	}
	p := m["parameters"].(map[string]any)
	p["modes"] = []string{mode}
	rounds, err := p["rounds"].(json.Number).Int64()
	if err != nil {
		tb.Fatal(err)
	}
	readers := len(p["readers"].([]any)) * len(p["apis"].([]any))
	m["runs_planned"], m["runs_completed"], m["runs_verified"], m["runs_superseded"] = int(rounds)*readers, len(kept), verified, superseded
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	forgery.Rewrite(f, map[string][]byte{bundle.ManifestFile: body})
	return f
}

func count(b string) int {
	if v, _ := strconv.ParseBool(b); v {
		return 1
	}
	return 0
}
