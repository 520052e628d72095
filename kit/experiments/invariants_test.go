package experiments

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// archivedOf are an archived bundle of each experiment, and its table whose rows each
// name a run, with that table's key.
var archivedOf = []struct {
	experiment, path, child string
	key                     []string
}{
	{"fifo-stall", "2026-11-30-vm2/fifo-py.tar.gz", "requests.csv", []string{"run_id", "seq"}},
	{"qps", "2026-11-30-vm2/qps-final.tar.gz", "series.csv", []string{"run_id", "second"}},
	{"line-cost", "2026-11-30-vm2/lc-final.tar.gz", "trials.csv", []string{"run_id", "trial"}},
	{"your-api", "2026-12-01-vm/your-api-stdlib.tar.gz", "series.csv", []string{"run_id", "second"}},
	{"log-driver", "2026-12-02-vm/log-driver.tar.gz", "runs.csv", []string{"run_id"}},
}

// counts are the manifest's common counts as an archived bundle has them.
type counts struct {
	planned, completed, verified, superseded int
	complete                                 bool
}

// editManifest rewrites f's manifest.json through edit, every other key and value as
// it was (numbers kept as written).
func editManifest(t *testing.T, f *bundle.Files, edit func(m map[string]any, n counts)) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(f.Data[bundle.ManifestFile]))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	num := func(key string) int {
		n, _ := m[key].(json.Number) // runs_superseded is absent where there is none
		i, _ := strconv.Atoi(string(n))
		return i
	}
	edit(m, counts{num("runs_planned"), num("runs_completed"), num("runs_verified"), num("runs_superseded"), m["complete"] == true})
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	f.Data[bundle.ManifestFile] = append(body, '\n')
}

// TestEveryExperimentRefusesABrokenInvariant: in an archived bundle of each experiment,
// each edit of what every bundle must hold, SHA256SUMS written again, is refused with a
// problem naming the field or the row: a manifest whose counts or plan are not its
// runs' (and nothing else refuses it), a table's key twice, a row of no run.
func TestEveryExperimentRefusesABrokenInvariant(t *testing.T) {
	type edit struct {
		name   string
		apply  func(t *testing.T, f *bundle.Files, child string, key []string)
		file   string // "" is the child table
		column string // "" is the child table's key
		only   bool   // every problem is this one's field
	}
	manifest := func(name, column string, change func(m map[string]any, n counts)) edit {
		return edit{name, func(t *testing.T, f *bundle.Files, _ string, _ []string) { editManifest(t, f, change) }, bundle.ManifestFile, column, true}
	}
	edits := []edit{
		manifest("complete flipped", "complete", func(m map[string]any, n counts) { m["complete"] = !n.complete }),
		// Each count changed with complete in step, so that the count alone is wrong.
		manifest("runs_planned changed", "runs_planned", func(m map[string]any, n counts) {
			m["runs_planned"], m["complete"] = n.planned+1, false
		}),
		manifest("runs_completed changed", "runs_completed", func(m map[string]any, n counts) {
			m["runs_completed"], m["complete"] = n.completed-1, false
		}),
		manifest("runs_verified changed", "runs_verified", func(m map[string]any, n counts) { m["runs_verified"] = n.verified - 1 }),
		manifest("runs_superseded changed", "runs_superseded", func(m map[string]any, n counts) {
			m["runs_superseded"], m["complete"] = n.superseded+1, false
		}),
		{"a key twice", func(t *testing.T, f *bundle.Files, child string, _ []string) {
			tb := forgery.Read(t, f, child)
			tb.Rows = append(tb.Rows, slices.Clone(tb.Rows[len(tb.Rows)-1]))
			tb.Write(f, child)
		}, "", "", false},
		{"a dangling reference", func(t *testing.T, f *bundle.Files, child string, _ []string) {
			tb := forgery.Read(t, f, child)
			tb.Set(t, 0, "run_id", "no-such-run")
			tb.Write(f, child)
		}, "", "run_id", false},
	}
	for _, a := range archivedOf {
		for _, e := range edits {
			t.Run(a.experiment+"/"+e.name, func(t *testing.T) {
				f := forgery.Open(t, filepath.Join("../../results", a.path))
				exp, err := Of(f)
				if err != nil || exp.Info().Name != a.experiment {
					t.Fatalf("%s: %v, %v", a.path, exp, err)
				}
				if res := exp.Verify(f); !res.OK() {
					t.Fatalf("the archived bundle does not verify: %v", res.Problems)
				}
				e.apply(t, f, a.child, a.key)
				forgery.Resum(f)
				res := exp.Verify(f)
				file, column := e.file, e.column
				if file == "" {
					file = a.child
				}
				if column == "" {
					column = strings.Join(a.key, ", ")
				}
				found := slices.ContainsFunc(res.Problems, func(p verify.Problem) bool {
					return p.File == file && p.Column == column && (file == bundle.ManifestFile || p.Line > 1 && p.Key != "")
				})
				others := slices.ContainsFunc(res.Problems, func(p verify.Problem) bool { return p.File != file || p.Column != column })
				if !found || (e.only && others) {
					t.Fatalf("want a problem in %s naming %s%s; have %q", file, column, map[bool]string{true: " alone"}[e.only], res.Problems)
				}
			})
		}
	}
}

// TestRunsPlannedIsWhatThePlanRuns: for every experiment, with its defaults and with
// each flag changed, the runs its parameters plan (what verify holds runs_planned to)
// are the runs reproduce plans: its conditions x rounds. A bundle claiming one more is
// refused.
func TestRunsPlannedIsWhatThePlanRuns(t *testing.T) {
	for _, e := range All {
		check := func(args ...string) {
			p := planOf(t, e, 3, args...)
			c := p.Bundle().Common()
			c.SchemaVersion, c.RunsPlanned = bundle.SchemaVersion, len(experiment.Rotate(p.Conditions(), p.Rounds()))
			for _, extra := range []int{0, 1} {
				c.RunsPlanned += extra
				files, err := p.Bundle().Files()
				if err != nil {
					t.Fatal(err)
				}
				f := &bundle.Files{Name: "planned", Data: files}
				forgery.Resum(f)
				res := e.Verify(f)
				refused := slices.ContainsFunc(res.Problems, func(p verify.Problem) bool { return p.Column == "runs_planned" })
				if res.Common == nil || refused != (extra > 0) {
					t.Errorf("%s %v: runs_planned %d of %d conditions x %d rounds: refused %v; problems %v", e.Info().Name, args, c.RunsPlanned,
						len(p.Conditions()), p.Rounds(), refused, res.Problems)
				}
			}
		}
		check()
		flagsOf(e).VisitAll(func(fl *flag.Flag) {
			if v, ok := other[e.Info().Name][fl.Name]; ok {
				check(append(slices.Clone(alongside[e.Info().Name][fl.Name]), fmt.Sprintf("--%s=%s", fl.Name, v))...)
			}
		})
	}
}
