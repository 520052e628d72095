package contract

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// wrk, the independent load generator of qps's check: the shell its container runs in
// the pod (WrkScript), and its output as the conductor hands it back (ParseWrk).

// WrkScript is the wrk container's shell (dash, coreutils): it makes the FIFO the
// conductor writes when its turn comes and blocks reading it (no CPU while the kit
// measures), runs wrk, leaves its output and exit status on the shared volume, and
// stays up until the pod is removed, since a container that ended would end the run.
// $1 is how long to stay up; wrk's command line follows.
const WrkScript = `d=` + RunDir + `
up="$1"; shift
mkfifo "$d/` + WrkStartFIFO + `" || exit 1
read turn < "$d/` + WrkStartFIFO + `"
"$@" > "$d/` + WrkOutput + `" 2>&1
echo $? > "$d/` + WrkExit + `.tmp"
mv "$d/` + WrkExit + `.tmp" "$d/` + WrkExit + `"
exec sleep "$up"`

// WrkFigures are what ParseWrk reads from wrk's output.
type WrkFigures struct {
	Requests     int64   // "N requests in 5.00s"
	DurationS    float64 // the time of that line
	RequestsPerS float64 // "Requests/sec:"
	LatencyP50Ms float64 // the --latency distribution; NaN without it
	LatencyP99Ms float64
	// Errors are the socket errors (connect, read, write, timeout) and the non-2xx or
	// 3xx responses wrk reports; 0 when it reports none.
	Errors int64
}

// ParseWrk reads wrk's (4.1) text output. Requests/sec and the requests line are
// required; a line it does not know is skipped.
func ParseWrk(out string) (WrkFigures, error) {
	f := WrkFigures{LatencyP50Ms: math.NaN(), LatencyP99Ms: math.NaN()}
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
				f.LatencyP50Ms = d * 1e3
			case "99%":
				f.LatencyP99Ms = d * 1e3
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
