package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Probes checks probes.csv, the speed probe's table that any bundle may hold: listed in
// SHA256SUMS and matching it, parsed strictly, every row a run of the bundle (runs), its
// speeds, request paths and drift as bundle.DeriveProbes derives them from its own
// before and after columns, and the manifest's summary of them (common.SpeedProbe) the
// same. It keeps each run's speed relative to the bundle's median in res.Speed, and
// names in res.Weakened the runs whose host's speed drifted, and those whose request
// path did, by condition. A bundle without the table says that its host's speed was not
// recorded. A table without any of the request path's columns was written before the
// kit probed it: it reads as a request path not recorded, and verifies as it always
// did; a table with some of them and not others is a problem.
func Probes(res *Result, files map[string][]byte, common *bundle.Common, runs map[string]bool) {
	const file = bundle.ProbeFile
	body, ok := files[file]
	if !ok {
		if common != nil && common.SpeedProbe != nil {
			res.Problem(Problem{File: file, Msg: "missing, though the manifest sums up its speed_probe"})
			return
		}
		res.Weakened = append(res.Weakened, "the host's speed was not recorded (no speed probe): a slower host cannot be told from a slower logger")
		return
	}
	d, ok := decodeListed[bundle.ProbeRow](res, files, file, body)
	if !ok {
		return
	}
	missing := d.Missing
	earlier := func(col string) bool { return slices.Contains(bundle.RequestPathColumns, col) }
	if slices.IndexFunc(bundle.RequestPathColumns, func(col string) bool { return !slices.Contains(missing, col) }) < 0 {
		// Every one of the request path's columns is missing: an earlier kit's table.
		missing = slices.DeleteFunc(slices.Clone(missing), earlier)
	}
	for _, col := range missing {
		res.Problem(Problem{File: file, Column: col, Msg: "missing column"})
	}
	if len(d.Errs) > 0 || len(missing) > 0 {
		return
	}
	rows, lines := d.Rows, d.Lines
	want, sum := bundle.DeriveProbes(rows, "", "")
	for i, have := range rows {
		line := lines[i]
		if !runs[have.RunID] {
			res.Problem(Problem{File: file, Line: line, Key: "run " + Short(have.RunID), Msg: "no such run in runs.csv"})
		}
		w := want[i]
		for _, f := range []struct {
			column     string
			have, want float64
			from       string
		}{
			{"speed_mb_per_s", float64(have.SpeedMBPerS), float64(w.SpeedMBPerS), "before_mb_per_s and after_mb_per_s"},
			{"relative_speed", float64(have.Relative), float64(w.Relative), "before_mb_per_s and after_mb_per_s"},
			{"request_cpu_us", float64(have.RequestCPUUs), float64(w.RequestCPUUs), "before_request_cpu_us and after_request_cpu_us"},
			{"relative_request_path", float64(have.RelativeRequestPath), float64(w.RelativeRequestPath), "before_request_cpu_us and after_request_cpu_us"},
		} {
			if !Same(f.have, f.want) {
				res.Problem(Problem{File: file, Line: line, Key: "run " + Short(have.RunID), Column: f.column, Have: Number(f.have), Want: Number(f.want),
					Msg: "recomputed from " + f.from + " over the bundle"})
			}
		}
		if have.Drifted != w.Drifted {
			res.Problem(Problem{File: file, Line: line, Key: "run " + Short(have.RunID), Column: "drifted", Have: fmt.Sprint(have.Drifted), Want: fmt.Sprint(w.Drifted),
				Msg: fmt.Sprintf("relative_speed or relative_request_path more than %g%% off 1", bundle.ProbeDrift*100)})
		}
	}
	if common != nil {
		checkProbeSummary(res, common.SpeedProbe, sum)
	}
	res.Speed = map[string]float64{}
	speedDrifted, pathDrifted := map[string]int{}, map[string]int{}
	for _, r := range want {
		if r.Relative > 0 {
			res.Speed[r.RunID] = float64(r.Relative)
		}
		if bundle.SpeedDrifted(r) {
			speedDrifted[r.Condition]++
		}
		if bundle.RequestPathDrifted(r) {
			pathDrifted[r.Condition]++
		}
	}
	if n := total(speedDrifted); n > 0 {
		res.Weakened = append(res.Weakened, fmt.Sprintf("%d runs ran on a host more than %g%% off the bundle's median speed (%s MB/s): %s",
			n, bundle.ProbeDrift*100, Number(sum.MedianMBPerS), byCondition(speedDrifted)))
	}
	if n := total(pathDrifted); n > 0 {
		res.Weakened = append(res.Weakened, fmt.Sprintf("%d runs ran on a host whose request path was more than %g%% off the bundle's median (%s µs of CPU a loopback request): %s",
			n, bundle.ProbeDrift*100, Number(sum.RequestPath.MedianCPUUs), byCondition(pathDrifted)))
	}
}

// checkProbeSummary compares the manifest's speed_probe (recorded) with its
// recomputation from probes.csv (sum).
func checkProbeSummary(res *Result, recorded, sum *bundle.ProbeSummary) {
	problem := func(have, want string) {
		res.Problem(Problem{File: bundle.ManifestFile, Column: "speed_probe", Have: have, Want: want, Msg: "recomputed from " + bundle.ProbeFile})
	}
	switch {
	case (recorded == nil) != (sum == nil):
		res.Problem(Problem{File: bundle.ManifestFile, Column: "speed_probe", Msg: "absent or present unlike " + bundle.ProbeFile})
		return
	case sum == nil:
		return
	}
	if recorded.Runs != sum.Runs || recorded.Drifted != sum.Drifted || !Same(recorded.MedianMBPerS, sum.MedianMBPerS) ||
		!Same(recorded.MinMBPerS, sum.MinMBPerS) || !Same(recorded.MaxMBPerS, sum.MaxMBPerS) {
		problem(fmt.Sprintf("%d runs, median %s, drifted %d", recorded.Runs, Number(recorded.MedianMBPerS), recorded.Drifted),
			fmt.Sprintf("%d runs, median %s, drifted %d", sum.Runs, Number(sum.MedianMBPerS), sum.Drifted))
	}
	have, want := recorded.RequestPath, sum.RequestPath
	switch {
	case (have == nil) != (want == nil):
		res.Problem(Problem{File: bundle.ManifestFile, Column: "speed_probe.request_path", Msg: "absent or present unlike " + bundle.ProbeFile + "'s request path"})
	case have != nil && (have.Runs != want.Runs || have.Drifted != want.Drifted || !Same(have.MedianCPUUs, want.MedianCPUUs) ||
		!Same(have.MinCPUUs, want.MinCPUUs) || !Same(have.MaxCPUUs, want.MaxCPUUs) || !Same(have.MedianSyscallNs, want.MedianSyscallNs)):
		res.Problem(Problem{File: bundle.ManifestFile, Column: "speed_probe.request_path",
			Have: fmt.Sprintf("%d runs, median %s µs (%s-%s), %s ns a write, drifted %d", have.Runs, Number(have.MedianCPUUs), Number(have.MinCPUUs), Number(have.MaxCPUUs), Number(have.MedianSyscallNs), have.Drifted),
			Want: fmt.Sprintf("%d runs, median %s µs (%s-%s), %s ns a write, drifted %d", want.Runs, Number(want.MedianCPUUs), Number(want.MinCPUUs), Number(want.MaxCPUUs), Number(want.MedianSyscallNs), want.Drifted),
			Msg:  "recomputed from " + bundle.ProbeFile})
	}
}

func total(by map[string]int) int {
	n := 0
	for _, c := range by {
		n += c
	}
	return n
}

// byCondition is "cond n, cond n", conditions in order.
func byCondition(by map[string]int) string {
	var out []string
	for _, c := range slices.Sorted(maps.Keys(by)) {
		out = append(out, fmt.Sprintf("%s %d", c, by[c]))
	}
	return strings.Join(out, ", ")
}

// decodeListed decodes an optional table file, body, once SHA256SUMS lists it and it
// matches, each line's errors a problem; not ok when it is not listed or does not match.
func decodeListed[R any](res *Result, files map[string][]byte, file string, body []byte) (bundle.Decoded[R], bool) {
	if !listed(res, files, file, body) {
		return bundle.Decoded[R]{}, false
	}
	d := bundle.DecodeCSV[R](file, body, MaxLineErrors)
	for _, e := range d.Errs {
		res.Problem(Problem{File: file, Line: e.Line, Column: e.Column, Msg: e.Msg})
	}
	return d, true
}

// listed checks that SHA256SUMS lists an optional file and that it matches.
func listed(res *Result, files map[string][]byte, file string, body []byte) bool {
	sums, ok := files[bundle.SumsFile]
	if !ok {
		return false // Checksums said so
	}
	for i, line := range strings.Split(string(sums), "\n") {
		sum, name, ok := parseSumLine(line)
		if !ok || name != file {
			continue
		}
		have := sha256.Sum256(body)
		if h := hex.EncodeToString(have[:]); h != strings.ToLower(sum) {
			res.Problem(Problem{File: file, Column: "SHA-256", Have: h, Want: strings.ToLower(sum), Msg: fmt.Sprintf("%s line %d; %d bytes", bundle.SumsFile, i+1, len(body))})
			return false
		}
		res.Counts.Files++
		return true
	}
	res.Problem(Problem{File: file, Msg: "not listed in " + bundle.SumsFile})
	return false
}

// RunProbes is Probes over the runs of a bundle's rows, each named by id.
func RunProbes[R any](res *Result, files map[string][]byte, rows []R, id func(R) string) {
	runs := map[string]bool{}
	for _, r := range rows {
		runs[id(r)] = true
	}
	Probes(res, files, res.Common, runs)
}
