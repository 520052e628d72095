package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// The manifests that no run could have produced and that verified before the rules
// that refuse them: each a seed of an experiment's FuzzManifest
// (<exp>/testdata/fuzz/FuzzManifest), put in place of the archived bundle's manifest
// with SHA256SUMS written again, and each refused by the problem named.
var forgedManifests = []struct {
	exp, seed, archived string
	want                string
}{
	// A parameter held to its flag's rule, or to what the plan records.
	{"qps", "max_run_time_s-negative", qpsDocker, "max_run_time_s -1: the plan records"},
	{"qps", "max_run_time_s-1e308", qpsDocker, "max_run_time_s 1e+308: the plan records"},
	{"qps", "duration_s-at-cap", qpsDocker, "max_run_time_s 126: the plan records --duration + --warmup-time + 2m, 3721 s"},
	{"yourapi", "max_run_time_s-negative", yourAPIStdlib, "max_run_time_s -1: the plan records"},
	{"yourapi", "max_run_time_s-1e308", yourAPIStdlib, "max_run_time_s 1e+308: the plan records"},
	{"yourapi", "duration_s-at-cap", yourAPIStdlib, "max_run_time_s 156: the plan records"},
	{"yourapi", "max_send_lag_p99_ms-negative", yourAPIStdlib, "max_send_lag_p99_ms -1: a parameter of --load open only, 0 under --load closed"},
	{"yourapi", "max_send_lag_p99_ms-at-cap", yourAPIStdlib, "max_send_lag_p99_ms 60000: a parameter of --load open only"},
	{"yourapi", "max_send_lag_p99_ms-past-cap", yourAPIStdlib, "max_send_lag_p99_ms 120000: a parameter of --load open only"},
	{"yourapi", "max_send_lag_p99_ms-1e308", yourAPIStdlib, "max_send_lag_p99_ms 1e+308: a parameter of --load open only"},
	{"yourapi", "rate_rps-at-cap", yourAPIStdlib, "rate_rps 100000: a parameter of --load open only"},
	{"yourapi", "retries-at-cap", yourAPIStdlib, "retries 10: a parameter of --load open only"},
	{"fifostall", "queue_capacity_records-negative", fifoGo, "queue_capacity_records -1: json-queue's queue holds 256 records"},
	{"fifostall", "read_bytes-negative", fifoGo, "read_bytes -1: the reader reads 4096 bytes at a time"},
	{"fifostall", "calibration-pipe_capacity_bytes-negative", fifoGo, "calibration.pipe_capacity_bytes -1: want 4096 to 2147483648 bytes"},
	{"fifostall", "calibration-run_overhead_s-negative", fifoGo, "calibration.run_overhead_s -1: want 0 to 3600 s"},
	{"fifostall", "calibration-run_overhead_s-1e308", fifoGo, "calibration.run_overhead_s 1e+308: want 0 to 3600 s"},
	{"linecost", "pids_limit-negative", lcFinal, "--pids-limit -1: want 16 to 4194304"},
	{"linecost", "line-unknown", lcFinal, `--line "cobol": a manifest written before --libraries records no line`},
	// The engine's facts.
	{"qps", "engine-cpus-negative", qpsDocker, "engine.cpus: have -2, want 1 to 4096 (rule engine-plausible"},
	{"qps", "engine-cpus-huge", qpsDocker, "engine.cpus: have 1099511627776, want 1 to 4096 (rule engine-plausible"},
	{"yourapi", "engine-cpus-negative", yourAPIStdlib, "engine.cpus: have -2"},
	{"yourapi", "engine-cpus-huge", yourAPIStdlib, "engine.cpus: have 1099511627776"},
	{"fifostall", "engine-cpus-negative", fifoGo, "engine.cpus: have -2"},
	{"fifostall", "engine-cpus-huge", fifoGo, "engine.cpus: have 1099511627776"},
	{"linecost", "engine-cpus-negative", lcFinal, "engine.cpus: have -2"},
	{"linecost", "engine-cpus-huge", lcFinal, "engine.cpus: have 1099511627776"},
}

const (
	qpsDocker     = "2026-12-01-vm/qps-docker.tar.gz"
	yourAPIStdlib = "2026-12-01-vm/your-api-stdlib.tar.gz"
	fifoGo        = "2026-11-30-vm2/fifo-go.tar.gz"
	lcFinal       = "2026-11-30-vm2/lc-final.tar.gz"
)

func TestForgedManifestsAreRefused(t *testing.T) {
	for _, tc := range forgedManifests {
		t.Run(tc.exp+"/"+tc.seed, func(t *testing.T) {
			manifest := fuzzSeed(t, filepath.Join(tc.exp, "testdata", "fuzz", "FuzzManifest", tc.seed))
			refusedWith(t, tc.archived, func([]byte) []byte { return manifest }, tc.want)
		})
	}
}

// TestManifestsEditedConsistentlyAreRefusedByWhatHappened: the manifest's parameters
// edited in step with each other, so that only what the runs measured, or the host they
// ran on, can refuse them.
func TestManifestsEditedConsistentlyAreRefusedByWhatHappened(t *testing.T) {
	for _, tc := range []struct {
		name, archived string
		edits          []string // old, new, ...
		want           string
	}{
		// An hour planned, the plan's max_run_time_s with it; the runs measured 5 s.
		{"qps an hour of load", qpsDocker, []string{`"duration_s": 5,`, `"duration_s": 3600,`, `"max_run_time_s": 126,`, `"max_run_time_s": 3721,`},
			"measured_s: have 5, want 3600 (rule duration-as-planned"},
		{"your-api an hour of load", yourAPIStdlib, []string{`"duration_s": 5,`, `"duration_s": 3600,`, `"max_run_time_s": 156,`, `"max_run_time_s": 3751,`},
			"measured_s: have 5, want 3600 (rule duration-as-planned"},
		// qps-unquota gave the API both of its host's 2 CPUs: on a host of 1 no engine
		// sets that limit.
		{"qps a limit past the host's CPUs", "2026-12-02-vm/qps-unquota.tar.gz", []string{`"cpus": 2,`, `"cpus": 1,`},
			"parameters.limits.api_cpus: have 2, want at most 1 (rule engine-plausible"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refusedWith(t, tc.archived, func(m []byte) []byte {
				for i := 0; i < len(tc.edits); i += 2 {
					if bytes.Count(m, []byte(tc.edits[i])) != 1 {
						t.Fatalf("the manifest has not one %s", tc.edits[i])
					}
					m = bytes.Replace(m, []byte(tc.edits[i]), []byte(tc.edits[i+1]), 1)
				}
				return m
			}, tc.want)
		})
	}
}

// refusedWith verifies the archived bundle with its manifest edited and SHA256SUMS
// written again, and wants it refused with a problem saying want.
func refusedWith(t *testing.T, path string, edit func([]byte) []byte, want string) {
	t.Helper()
	f := forgery.Open(t, archived(path))
	exp, err := Of(f)
	if err != nil {
		t.Fatal(err)
	}
	if res := exp.Verify(f); !res.OK() {
		t.Fatalf("the archived bundle does not verify: %v", res.Problems[0])
	}
	f.Data[bundle.ManifestFile] = edit(bytes.Clone(f.Data[bundle.ManifestFile]))
	forgery.Resum(f)
	res := exp.Verify(f)
	if res.OK() {
		t.Fatal("the forged manifest verifies")
	}
	for _, p := range res.Problems {
		if strings.Contains(p.String(), want) {
			t.Logf("refused: %s", p)
			return
		}
	}
	t.Errorf("no problem says %q; have %v", want, res.Problems)
}

// fuzzSeed reads a seed of a fuzz corpus: "go test fuzz v1" and one []byte literal.
func fuzzSeed(t *testing.T, path string) []byte {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, lit, _ := strings.Cut(strings.TrimSpace(string(body)), "\n")
	lit, ok := strings.CutPrefix(strings.TrimSpace(lit), "[]byte(")
	lit, ok2 := strings.CutSuffix(lit, ")")
	s, err := strconv.Unquote(lit)
	if head != "go test fuzz v1" || !ok || !ok2 || err != nil {
		t.Fatalf("%s: not a seed of one []byte (%v)", path, err)
	}
	return []byte(s)
}
