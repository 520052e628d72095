package experiments

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// TestTwoBadFlagsSayTheSameFirstProblem: each experiment checks its parameters in a
// fixed order, so two bad flags give the same first problem every time (a check that
// walked a map would not).
func TestTwoBadFlagsSayTheSameFirstProblem(t *testing.T) {
	bad := map[string]struct {
		args  []string
		first string
	}{
		"fifo-stall": {[]string{"--reader-memory", "1MiB", "--loadgen-memory", "1MiB", "--api-memory", "1MiB"}, "--api-memory 1MiB:"},
		"qps":        {[]string{"--pipelining", "0", "--connections", "0"}, "--connections 0:"},
		"line-cost":  {[]string{"--trials", "1", "--lines", "5"}, "--lines 5:"},
		"your-api":   {[]string{"--loadgen-memory", "1MiB", "--api-memory", "1MiB"}, "--api-memory 1MiB:"},
		"log-driver": {[]string{"--rates", "0", "--drivers", "gelf"}, "--drivers: unknown"},
	}
	for _, e := range All {
		c, ok := bad[e.Info().Name]
		if !ok {
			t.Errorf("%s: no two bad flags to try in this test's table", e.Info().Name)
			continue
		}
		for range 20 {
			params := e.Params()
			if err := experiment.FlagSet(e.Info().Name, params).Parse(append(slices.Clone(required[e.Info().Name]), c.args...)); err != nil {
				t.Fatal(err)
			}
			_, err := e.Plan(params, 2)
			var usage experiment.UsageError
			if !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), c.first) {
				t.Fatalf("%s %v: %v, want first %q", e.Info().Name, c.args, err, c.first)
			}
		}
	}
}

// TestAManifestOutOfRangeIsAVerifyProblem: a parameter no flag could have set, in a copy
// of an archived bundle whose SHA256SUMS is written again, is refused by verify with a
// problem naming the flag's rule, and nothing panics; so are compare, report, archive
// and resume, which read a bundle through verify.
func TestAManifestOutOfRangeIsAVerifyProblem(t *testing.T) {
	for _, c := range []struct {
		archive, key string
		value        any
		flag         string
	}{
		{"2026-11-30-vm2/qps-final.tar.gz", "connections", -10, "--connections -10:"},
		{"2026-11-30-vm2/lc-final.tar.gz", "languages", []string{"go", "cobol"}, `--languages: unknown "cobol"`},
		{"2026-11-30-vm2/fifo-go.tar.gz", "rate_rps", 0, "--rate 0:"},
		{"2026-12-01-vm/your-api-stdlib.tar.gz", "configs", []any{}, "--config: give at least one"},
		{"2026-11-30-vm2/qps-final.tar.gz", "rounds", 1_000_000_000, "--reps 1000000000:"},
		{"2026-11-30-vm2/qps-final.tar.gz", "configs", slices.Repeat([]string{"none"}, 100_000), "--configs: 100000 values, at most 64"},
	} {
		t.Run(c.archive+"/"+c.key, func(t *testing.T) {
			f := forgery.Open(t, "../../results/"+c.archive)
			var m map[string]any
			if err := json.Unmarshal(f.Data[bundle.ManifestFile], &m); err != nil {
				t.Fatal(err)
			}
			m["parameters"].(map[string]any)[c.key] = c.value
			body, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			f.Data[bundle.ManifestFile] = body
			forgery.Resum(f)
			e, err := Lookup(m["experiment"].(string))
			if err != nil {
				t.Fatal(err)
			}
			res := e.Verify(f)
			named := slices.ContainsFunc(res.Problems, func(p verify.Problem) bool {
				return p.File == bundle.ManifestFile && p.Column == "parameters" && strings.HasPrefix(p.Msg, c.flag)
			})
			if res.OK() || !named || res.Own != nil {
				t.Fatalf("want a problem of manifest.json's parameters %q and nothing read further; have %q", c.flag, res.Problems)
			}
		})
	}
}
