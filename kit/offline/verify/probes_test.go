package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// probeBundle is the files Probes reads: probes.csv as body, listed in SHA256SUMS.
func probeBundle(body string) map[string][]byte {
	sum := sha256.Sum256([]byte(body))
	return map[string][]byte{bundle.ProbeFile: []byte(body), bundle.SumsFile: []byte(hex.EncodeToString(sum[:]) + "  " + bundle.ProbeFile + "\n")}
}

// probed is a bundle's probes.csv and manifest summary as the kit writes them: three
// runs of node/none and one of node/console, the console run's request path 30% slower
// than the median and one none run's speed 20% below it.
func probed(t *testing.T) (string, *bundle.ProbeSummary) {
	t.Helper()
	reading := func(mb, cpu bundle.Opt) bundle.ProbeReading {
		return bundle.ProbeReading{MBPerS: mb, ReqPerS: 9000, RequestCPUUs: cpu, SyscallNs: 400}
	}
	rows, sum := bundle.DeriveProbes([]bundle.ProbeRow{
		bundle.NewProbeRow("r1", "node/none", reading(1000, 50), reading(1000, 50)),
		bundle.NewProbeRow("r2", "node/none", reading(1000, 50), reading(1000, 50)),
		bundle.NewProbeRow("r3", "node/none", reading(800, 50), reading(800, 50)),
		bundle.NewProbeRow("r4", "node/console", reading(1000, 65), reading(1000, 65)),
	}, "k", "rk")
	body, err := bundle.EncodeProbes(rows)
	if err != nil {
		t.Fatal(err)
	}
	return string(body), sum
}

var probedRuns = map[string]bool{"r1": true, "r2": true, "r3": true, "r4": true}

// TestProbesSaysWhichRunsDrifted: a bundle as the kit writes it verifies, and says
// which runs' host speed and which runs' request path drifted, by condition, apart.
func TestProbesSaysWhichRunsDrifted(t *testing.T) {
	body, sum := probed(t)
	res := &Result{}
	Probes(res, probeBundle(body), &bundle.Common{SpeedProbe: sum}, probedRuns)
	if len(res.Problems) > 0 || len(res.Notes) > 0 {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
	want := []string{
		"1 runs ran on a host more than 10% off the bundle's median speed (1000 MB/s): node/none 1",
		"1 runs ran on a host whose request path was more than 10% off the bundle's median (50 µs of CPU a loopback request): node/console 1",
	}
	if !slices.Equal(res.Weakened, want) {
		t.Errorf("weakened:\n%s\nwant:\n%s", strings.Join(res.Weakened, "\n"), strings.Join(want, "\n"))
	}
	if sum.Drifted != 2 || sum.RequestPath.Drifted != 1 {
		t.Errorf("summary: %d drifted, %d by the request path; want 2 and 1", sum.Drifted, sum.RequestPath.Drifted)
	}
}

// TestProbesRecomputesTheRequestPath: an edited request path, its drift, or the
// manifest's summary of it is a problem.
func TestProbesRecomputesTheRequestPath(t *testing.T) {
	body, sum := probed(t)
	header, _, _ := strings.Cut(body, "\n")
	column := slices.Index(strings.Split(header, ","), "request_cpu_us")
	edit := func(row, col int, value string) string {
		lines := strings.Split(body, "\n")
		f := strings.Split(lines[row], ",")
		f[col] = value
		lines[row] = strings.Join(f, ",")
		return strings.Join(lines, "\n")
	}
	relPath := slices.Index(strings.Split(header, ","), "relative_request_path")
	drifted := slices.Index(strings.Split(header, ","), "drifted")
	otherSum := *sum
	otherPath := *sum.RequestPath
	otherPath.MedianSyscallNs = 300
	otherSum.RequestPath = &otherPath
	noPath := *sum
	noPath.RequestPath = nil
	for _, tc := range []struct {
		name string
		body string
		sum  *bundle.ProbeSummary
		want string
	}{
		{"request_cpu_us edited", edit(1, column, "40"), sum, "probes.csv line 2 (run r1): request_cpu_us: have 40, want 50"},
		{"relative_request_path edited", edit(4, relPath, "1"), sum, "relative_request_path: have 1, want 0.769"},
		{"drifted cleared", edit(4, drifted, "false"), sum, "drifted: have false, want true"},
		{"the summary's writes edited", body, &otherSum, "speed_probe.request_path"},
		{"the summary without the request path", body, &noPath, "absent or present unlike probes.csv's request path"},
		{"a request-path column dropped", dropColumn(body, "before_syscall_ns"), sum, "probes.csv: before_syscall_ns: missing column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &Result{}
			Probes(res, probeBundle(tc.body), &bundle.Common{SpeedProbe: tc.sum}, probedRuns)
			var all []string
			for _, p := range res.Problems {
				all = append(all, p.String())
			}
			if !strings.Contains(strings.Join(all, "\n"), tc.want) {
				t.Errorf("problems:\n%s\nwant one with %q", strings.Join(all, "\n"), tc.want)
			}
		})
	}
}

// dropColumn is the CSV body without its column col.
func dropColumn(body, col string) string {
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	at := slices.Index(strings.Split(lines[0], ","), col)
	for i, l := range lines {
		f := strings.Split(l, ",")
		lines[i] = strings.Join(slices.Delete(f, at, at+1), ",")
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestProbesOfAnEarlierKit: a probes.csv written before the kit probed the request
// path, without any of its columns, verifies as it always did: no problem, no note,
// the same weakened line, and no word of a request path.
func TestProbesOfAnEarlierKit(t *testing.T) {
	const earlier = "run_id,condition,before_mb_per_s,after_mb_per_s,speed_mb_per_s,relative_speed,drifted\n" +
		"r1,node/none,1000,1000,1000,1,false\n" +
		"r2,node/none,1000,1000,1000,1,false\n" +
		"r3,node/none,800,,800,0.8,true\n"
	sum := &bundle.ProbeSummary{Kernel: "k", Runs: 3, MedianMBPerS: 1000, MinMBPerS: 800, MaxMBPerS: 1000, Drifted: 1}
	res := &Result{}
	Probes(res, probeBundle(earlier), &bundle.Common{SpeedProbe: sum}, probedRuns)
	if len(res.Problems) > 0 || len(res.Notes) > 0 {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
	want := []string{"1 runs ran on a host more than 10% off the bundle's median speed (1000 MB/s): node/none 1"}
	if !slices.Equal(res.Weakened, want) || res.Speed["r3"] != 0.8 {
		t.Errorf("weakened %q, speeds %v", res.Weakened, res.Speed)
	}
	// The earlier manifest, had it summed up a request path the table lacks, lies.
	sum.RequestPath = &bundle.RequestPathSummary{Runs: 3}
	res = &Result{}
	Probes(res, probeBundle(earlier), &bundle.Common{SpeedProbe: sum}, probedRuns)
	if len(res.Problems) != 1 {
		t.Errorf("a request path summed up from no column: %v", res.Problems)
	}
}
