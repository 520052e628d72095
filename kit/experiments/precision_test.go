package experiments

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/precision"
)

// TestEveryExperimentJudgesItsPrecision: each experiment marks a headline figure in
// every condition that has figures, and its verify holds a record of reproduce
// --precision to the bundle's rows: a record that follows from them verifies, whether
// it says reached or max-rounds; the same record with another ending, or another
// widest figure, is refused. The archived bundles have no record and verify as before
// (TestOneFigureHasOneIntervalEverywhere).
func TestEveryExperimentJudgesItsPrecision(t *testing.T) {
	for _, path := range sameIntervalBundles {
		t.Run(filepath.Base(path), func(t *testing.T) {
			files := forgery.Open(t, path)
			exp, err := Of(files)
			if err != nil {
				t.Fatal(err)
			}
			res := exp.Verify(files)
			if !res.OK() || res.Common.Precision != nil {
				t.Fatalf("the archived bundle: %v, precision %+v", res.Problems, res.Common.Precision)
			}
			rows, err := exp.Figures(res)
			if err != nil {
				t.Fatal(err)
			}
			headline := map[string]bool{}
			for _, r := range rows {
				c := precision.ConditionText(r.Condition)
				headline[c] = headline[c] || r.Headline
			}
			for c, has := range headline {
				if !has {
					t.Errorf("condition %s has figures and no headline one", c)
				}
			}
			widest := precision.Widest(rows)
			if widest == nil || widest.Relative == nil {
				t.Fatalf("widest %+v", widest)
			}
			// The rounds are a parameter of the hand-built experiments' manifests, and a
			// field of their own in a tabular experiment's.
			var m struct {
				Rounds     int `json:"rounds"`
				Parameters struct {
					Rounds int `json:"rounds"`
				} `json:"parameters"`
			}
			if err := json.Unmarshal(files.Data[bundle.ManifestFile], &m); err != nil {
				t.Fatal(err)
			}
			rounds := max(m.Rounds, m.Parameters.Rounds)
			honest := map[string]bundle.Precision{
				"reached":    {Target: *widest.Relative * 1.01, MinRounds: 2, MaxRounds: rounds + 5, Rounds: rounds, Stopped: bundle.Reached, Widest: widest},
				"max-rounds": {Target: *widest.Relative / 2, MinRounds: 2, MaxRounds: rounds, Rounds: rounds, Stopped: bundle.MaxRounds, Widest: widest},
			}
			forged := map[string]bundle.Precision{
				"reached, short of it":     {Target: *widest.Relative / 2, MinRounds: 2, MaxRounds: rounds + 5, Rounds: rounds, Stopped: bundle.Reached, Widest: widest},
				"max-rounds, within it":    {Target: *widest.Relative * 1.01, MinRounds: 2, MaxRounds: rounds, Rounds: rounds, Stopped: bundle.MaxRounds, Widest: widest},
				"another widest figure":    {Target: 0.99, MinRounds: 2, MaxRounds: rounds, Rounds: rounds, Stopped: bundle.Reached, Widest: &bundle.Widest{Metric: widest.Metric, Condition: "elsewhere", Unit: widest.Unit, Runs: widest.Runs, Value: widest.Value, HalfWidth: widest.HalfWidth, Relative: widest.Relative}},
				"rounds it did not run":    {Target: *widest.Relative * 1.01, MinRounds: 2, MaxRounds: rounds + 5, Rounds: rounds + 1, Stopped: bundle.Reached, Widest: widest},
				"interrupted, yet planned": {Target: *widest.Relative / 2, MinRounds: 2, MaxRounds: rounds + 5, Rounds: rounds, Stopped: bundle.Interrupted, Widest: widest},
			}
			if *widest.Relative*1.01 >= 1 { // no target can be reached: --precision takes less than 100%
				delete(honest, "reached")
				delete(forged, "max-rounds, within it")
				delete(forged, "rounds it did not run")
			}
			with := func(p bundle.Precision) *bundle.Files {
				f := forgery.Open(t, path)
				var manifest map[string]any
				if err := json.Unmarshal(f.Data[bundle.ManifestFile], &manifest); err != nil {
					t.Fatal(err)
				}
				manifest["precision"] = p
				body, _ := json.MarshalIndent(manifest, "", "  ")
				forgery.Rewrite(f, map[string][]byte{bundle.ManifestFile: append(body, '\n')})
				return f
			}
			for name, p := range honest {
				if res := exp.Verify(with(p)); !res.OK() || !strings.Contains(res.Summary(), "rounds until ±") {
					t.Errorf("%s, as the rows say: %v\n%s", name, res.Problems, res.Summary())
				}
			}
			for name, p := range forged {
				res := exp.Verify(with(p))
				if res.OK() || !strings.Contains(res.Problems[0].Column, "precision.") {
					t.Errorf("%s: verified, or refused for another reason: %v", name, res.Problems)
				}
			}
		})
	}
}
