package qps

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
)

// The independent check of the kit's load generator: in every run of every
// configuration, Debian's wrk loads the same API container from the same network
// namespace (the pod's) with the same connections for the same duration, alone, next
// to the kit's own measured load (right before it or right after it, WrkAlternate), so
// that a bundle's loads interleave and the host's drift falls on both alike. The two
// rates must agree.

// WrkTolerance is how far the kit's rate may be from wrk's, as a share of wrk's: the
// issue's "must agree within 5%". A run past it is not data: an instrument that an
// independent one contradicts cannot vouch for its figure.
const WrkTolerance = 0.05

// WrkAgrees says the kit's rate over wrk's, agreement, is within WrkTolerance.
func WrkAgrees(agreement float64) bool { return math.Abs(agreement-1) <= WrkTolerance }

// wrkScript is the wrk container's shell (dash, coreutils): it makes the FIFO the
// conductor writes when its turn comes and blocks reading it (no CPU while the kit
// measures), runs wrk, leaves its output and exit status on the shared volume, and
// stays up until the pod is removed, since a container that ended would end the run.
// $1 is how long to stay up; wrk's command line follows.
const wrkScript = `d=` + contract.RunDir + `
up="$1"; shift
mkfifo "$d/` + contract.WrkStartFIFO + `" || exit 1
read turn < "$d/` + contract.WrkStartFIFO + `"
"$@" > "$d/` + contract.WrkOutput + `" 2>&1
echo $? > "$d/` + contract.WrkExit + `.tmp"
mv "$d/` + contract.WrkExit + `.tmp" "$d/` + contract.WrkExit + `"
exec sleep "$up"`

// WrkArgs is wrk's command line for p: one thread, p's connections, p's duration in
// whole seconds (wrk takes no fraction; at least 1), latency percentiles, the API's
// workload port on the pod's loopback.
func WrkArgs(p Params) []string {
	return []string{"wrk", "-t1", "-c", strconv.Itoa(p.Connections), "-d", fmt.Sprintf("%ds", wrkSeconds(p.DurationS)), "--latency",
		fmt.Sprintf("http://127.0.0.1:%d/", contract.WorkloadPort)}
}

func wrkSeconds(d float64) int { return max(1, int(math.Round(d))) }

// WrkAlternate is the order of a run's two loads since wrk checks every configuration:
// a condition's odd runs (its 1st, 3rd, ... pod) have the kit's warm-up, wrk, then the
// kit's measured load; its even runs the kit's warm-up, the kit's measured load, then
// wrk. So neither instrument always loads the API first (warmer or colder, before or
// after the other's log lines), and runs.csv's wrk_after_kit says which run had which.
// A manifest without an order (a bundle of an earlier kit) had wrk after the kit's
// load, in none only.
const WrkAlternate = "alternate: warmup,wrk,kit in a condition's odd runs; warmup,kit,wrk in its even runs"

// wrkRuns says whether a run of config has the wrk phase: every configuration's, or
// none's only in a bundle of an earlier kit (no wrk_configs in its manifest).
func wrkRuns(p Params, config string) bool {
	if !p.Wrk {
		return false
	}
	if p.WrkConfigs == nil {
		return config == NoLog
	}
	return slices.Contains(p.WrkConfigs, config)
}

// WrkFigures are what ParseWrk reads from wrk's output.
type WrkFigures struct {
	Requests     int64   // "N requests in 5.00s"
	DurationS    float64 // the time of that line
	RequestsPerS float64 // "Requests/sec:"
	LatencyP50Ms Opt     // the --latency distribution; absent without it
	LatencyP99Ms Opt
	// Errors are the socket errors (connect, read, write, timeout) and the non-2xx or
	// 3xx responses wrk reports; 0 when it reports none.
	Errors int64
}

// ParseWrk reads wrk's (4.1) text output. Requests/sec and the requests line are
// required; a line it does not know is skipped.
func ParseWrk(out string) (WrkFigures, error) {
	f := WrkFigures{LatencyP50Ms: None, LatencyP99Ms: None}
	var haveRate, haveCount bool
	inLatency := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "Requests/sec:") && len(fields) == 2:
			v, err := strconv.ParseFloat(fields[1], 64)
			if err != nil {
				return f, fmt.Errorf("wrk: %q: %v", line, err)
			}
			f.RequestsPerS, haveRate = v, true
		case len(fields) >= 4 && fields[1] == "requests" && fields[2] == "in":
			n, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				return f, fmt.Errorf("wrk: %q: %v", line, err)
			}
			d, err := wrkTime(strings.TrimSuffix(fields[3], ","))
			if err != nil {
				return f, fmt.Errorf("wrk: %q: %v", line, err)
			}
			f.Requests, f.DurationS, haveCount = n, d, true
		case line == "Latency Distribution":
			inLatency = true
		case inLatency && len(fields) == 2 && strings.HasSuffix(fields[0], "%"):
			d, err := wrkTime(fields[1])
			if err != nil {
				return f, fmt.Errorf("wrk: %q: %v", line, err)
			}
			switch fields[0] {
			case "50%":
				f.LatencyP50Ms = Opt(d * 1e3)
			case "99%":
				f.LatencyP99Ms = Opt(d * 1e3)
			}
		case strings.HasPrefix(line, "Socket errors:"):
			// "Socket errors: connect 0, read 0, write 0, timeout 0"
			for i := 2; i+1 < len(fields); i += 2 {
				n, err := strconv.ParseInt(strings.TrimSuffix(fields[i+1], ","), 10, 64)
				if err != nil {
					return f, fmt.Errorf("wrk: %q: %v", line, err)
				}
				f.Errors += n
			}
		case strings.HasPrefix(line, "Non-2xx or 3xx responses:") && len(fields) == 5:
			n, err := strconv.ParseInt(fields[4], 10, 64)
			if err != nil {
				return f, fmt.Errorf("wrk: %q: %v", line, err)
			}
			f.Errors += n
		default:
			inLatency = inLatency && strings.HasSuffix(fields0(fields), "%")
		}
	}
	switch {
	case !haveRate:
		return f, errors.New("wrk: no Requests/sec line")
	case !haveCount:
		return f, errors.New("wrk: no \"N requests in T\" line")
	}
	return f, nil
}

func fields0(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// wrkTime reads wrk's times ("495.00us", "1.20ms", "5.00s", "1.00m", "2.00h") in seconds.
func wrkTime(s string) (float64, error) {
	for _, u := range []struct {
		suffix string
		s      float64
	}{{"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}} {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return 0, fmt.Errorf("time %q", s)
			}
			return v * u.s, nil
		}
	}
	return 0, fmt.Errorf("time %q: no unit", s)
}
