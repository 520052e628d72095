package verify

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// A small bundle of three tables: runs of a condition (one redone), each run's seconds,
// and the conditions.
type testRun struct {
	RunID      string `csv:"run_id"`
	Cond       string `csv:"cond"`
	Verified   bool   `csv:"verified"`
	Superseded bool   `csv:"superseded" was:"redone"`
}

type testSecond struct {
	RunID  string `csv:"run_id"`
	Second int    `csv:"second"`
}

type testCond struct {
	Name string `csv:"name"`
	Runs int    `csv:"runs"`
}

var testTables = []bundle.Table{
	{File: "runs.csv", Name: "runs", Row: reflect.TypeFor[testRun](), Key: []string{"run_id"}, Verified: "verified", Superseded: "superseded",
		Refs: []bundle.Ref{{Columns: []string{"cond"}, Table: "conditions.csv", To: []string{"name"}}}},
	{File: "seconds.csv", Name: "seconds", Row: reflect.TypeFor[testSecond](), Key: []string{"run_id", "second"},
		Refs: []bundle.Ref{{Columns: []string{"run_id"}, Table: "runs.csv"}}},
	{File: "conditions.csv", Name: "conditions", Row: reflect.TypeFor[testCond](), Key: []string{"name"}},
}

// testFiles are the small bundle's files, whole and consistent: 3 runs (r1 redone by
// r2, r3 failed) of 2 conditions, planned 2, so complete.
func testFiles() map[string][]byte {
	return map[string][]byte{
		"runs.csv":       []byte("run_id,cond,verified,superseded\nr1,a,true,true\nr2,a,true,false\nr3,b,false,false\n"),
		"seconds.csv":    []byte("run_id,second\nr1,0\nr1,1\nr2,0\nr3,0\n"),
		"conditions.csv": []byte("name,runs\na,2\nb,1\n"),
	}
}

func testCommon() *bundle.Common {
	return &bundle.Common{RunsPlanned: 2, RunsCompleted: 3, RunsVerified: 2, RunsSuperseded: 1, Complete: true}
}

func checked(files map[string][]byte, tables []bundle.Table, common *bundle.Common, planned int, parsed func(string) bool) *Result {
	res := &Result{Common: common}
	if parsed == nil {
		parsed = func(string) bool { return true }
	}
	Tables(res, files, tables, parsed, planned)
	return res
}

func TestConsistentTablesHaveNoProblem(t *testing.T) {
	res := checked(testFiles(), testTables, testCommon(), 2, nil)
	if !res.OK() {
		t.Fatalf("problems: %v", res.Problems)
	}
	if c := res.Counts; c.Runs != 3 || c.Verified != 2 || c.Superseded != 1 {
		t.Errorf("counts %+v, want 3 runs, 2 verified, 1 superseded", c)
	}
}

// TestTablesRefuseEachBrokenInvariant: each edit of the small bundle is one problem,
// naming its file, line, key and column.
func TestTablesRefuseEachBrokenInvariant(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   func(map[string][]byte)
		common  func(*bundle.Common)
		planned int
		want    string
	}{
		{"a key twice", func(f map[string][]byte) { f["seconds.csv"] = append(f["seconds.csv"], "r1,1\n"...) }, nil, 2,
			"seconds.csv line 6 (run_id r1, second 1): run_id, second: again (first on line 3): no two rows of seconds.csv share its key"},
		{"a second of no run", func(f map[string][]byte) { f["seconds.csv"] = append(f["seconds.csv"], "r9,0\n"...) }, nil, 2,
			"seconds.csv line 6 (run_id r9): run_id: no row of runs.csv has this run_id"},
		{"a run of no condition", func(f map[string][]byte) {
			f["runs.csv"] = []byte("run_id,cond,verified,superseded\nr1,a,true,true\nr2,a,true,false\nr3,c,false,false\n")
		}, nil, 2, "runs.csv line 4 (cond c): cond: no row of conditions.csv has this name"},
		{"complete flipped", nil, func(c *bundle.Common) { c.Complete = false }, 2,
			"manifest.json: complete: have false, want true (runs_completed - runs_superseded == runs_planned)"},
		{"runs_completed changed", nil, func(c *bundle.Common) { c.RunsCompleted, c.Complete = 2, false }, 2,
			"manifest.json: runs_completed: have 2, want 3 (rows of runs.csv)"},
		{"runs_verified changed", nil, func(c *bundle.Common) { c.RunsVerified = 3 }, 2,
			"manifest.json: runs_verified: have 3, want 2 (rows of runs.csv with verified true)"},
		{"runs_superseded changed", nil, func(c *bundle.Common) { c.RunsSuperseded, c.Complete = 2, false }, 2,
			"manifest.json: runs_superseded: have 2, want 1 (rows of runs.csv with superseded true)"},
		{"runs_planned unlike the parameters", nil, func(c *bundle.Common) { c.RunsPlanned, c.Complete = 3, false }, 2,
			"manifest.json: runs_planned: have 3, want 2 (the runs the manifest's parameters plan: each condition once a round)"},
		{"more runs than planned", func(f map[string][]byte) {
			f["runs.csv"] = append(f["runs.csv"], "r4,b,true,false\n"...)
		}, func(c *bundle.Common) { c.RunsCompleted, c.RunsVerified, c.Complete = 4, 3, false }, 2,
			"manifest.json: runs_completed: have 4, want at most 3 (runs_planned + runs_superseded: no run counts beyond the plan)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, common := testFiles(), testCommon()
			if tc.files != nil {
				tc.files(files)
			}
			if tc.common != nil {
				tc.common(common)
			}
			res := checked(files, testTables, common, tc.planned, nil)
			if len(res.Problems) != 1 || res.Problems[0].String() != tc.want {
				t.Fatalf("problems %q, want only %q", res.Problems, tc.want)
			}
		})
	}
}

func TestAnExperimentThatRedoesNoRunCountsNone(t *testing.T) {
	tables := slices.Clone(testTables)
	tables[0].Superseded = ""
	files := testFiles()
	files["runs.csv"] = []byte("run_id,cond,verified,superseded\nr1,a,true,false\nr3,b,false,false\n")
	files["seconds.csv"] = []byte("run_id,second\nr1,0\n")
	common := &bundle.Common{RunsPlanned: 2, RunsCompleted: 2, RunsVerified: 1, Complete: true}
	if res := checked(files, tables, common, 2, nil); !res.OK() {
		t.Fatalf("problems: %v", res.Problems)
	}
	common.RunsSuperseded, common.RunsCompleted, common.RunsVerified = 1, 3, 2
	files["runs.csv"] = append(files["runs.csv"], "r2,a,true,false\n"...)
	res := checked(files, tables, common, 2, nil)
	if len(res.Problems) != 1 || res.Problems[0].String() != "manifest.json: runs_superseded: have 1, want 0 (this experiment redoes no run)" {
		t.Fatalf("problems %q", res.Problems)
	}
}

// TestTablesReadOlderBundles: a column under the name it had before is found by it, and
// a column the file lacks (a bundle written before the kit added it) reads as empty.
func TestTablesReadOlderBundles(t *testing.T) {
	files := testFiles()
	files["runs.csv"] = []byte("run_id,cond,verified,redone\nr1,a,true,true\nr2,a,true,false\nr3,b,false,false\n")
	if res := checked(files, testTables, testCommon(), 2, nil); !res.OK() || res.Counts.Superseded != 1 {
		t.Fatalf("the former name: %v, counts %+v", res.Problems, res.Counts)
	}
	files["runs.csv"] = []byte("run_id,verified,superseded\nr1,true,true\nr2,true,false\nr3,false,false\n")
	files["conditions.csv"] = []byte("runs\n3\n")
	if res := checked(files, testTables, testCommon(), 2, nil); !res.OK() {
		t.Fatalf("an absent column: %v", res.Problems)
	}
}

// TestTablesCheckOnlyWhatParsed: a file the experiment could not read, or the manifest,
// is left to the problems its reading found; the runs are still counted.
func TestTablesCheckOnlyWhatParsed(t *testing.T) {
	files := testFiles()
	files["seconds.csv"] = append(files["seconds.csv"], "r9,0\nr9,0\n"...)
	common := testCommon()
	common.RunsVerified = 0
	res := checked(files, testTables, common, 2, func(file string) bool { return file != "seconds.csv" && file != "runs.csv" })
	if !res.OK() || res.Counts.Runs != 3 {
		t.Fatalf("unparsed files checked: %v, counts %+v", res.Problems, res.Counts)
	}
	if res := checked(files, testTables, nil, 0, nil); len(res.Problems) != 3 { // twice r9: two dangling and one key again
		t.Fatalf("without a manifest: %v", res.Problems)
	}
	delete(files, "runs.csv")
	if res := checked(files, testTables, testCommon(), 2, nil); len(res.Problems) != 1 || res.Problems[0].Column != "run_id, second" || res.Counts.Runs != 0 {
		t.Fatalf("without runs.csv, only seconds.csv's key can be checked: %v", res.Problems)
	}
}

// TestProblemsOfOneKindAreCapped: past MaxLineErrors rows of one kind in one file, one
// problem says how many there were.
func TestProblemsOfOneKindAreCapped(t *testing.T) {
	files := testFiles()
	var b strings.Builder
	b.WriteString("run_id,second\n")
	for i := range MaxLineErrors + 5 {
		fmt.Fprintf(&b, "ghost,%d\n", i)
	}
	files["seconds.csv"] = []byte(b.String())
	res := checked(files, testTables, testCommon(), 2, nil)
	if len(res.Problems) != MaxLineErrors+1 {
		t.Fatalf("%d problems, want %d", len(res.Problems), MaxLineErrors+1)
	}
	if last := res.Problems[MaxLineErrors].String(); last != fmt.Sprintf("seconds.csv: run_id: %d rows in all name no row of runs.csv", MaxLineErrors+5) {
		t.Errorf("last problem %q", last)
	}
}
