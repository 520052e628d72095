package experiments

import (
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiment"
)

// longer are flags that lengthen every run of an experiment, and a value past their
// defaults (in flags_test.go's other, values may be shorter).
var longer = map[string]map[string]string{
	"fifo-stall": {"max-run-time": "20m"}, // its runs are held to it, whatever --duration
	"qps":        {"duration": "10m", "warmup-time": "5m"},
	"your-api":   {"duration": "10m", "warmup-time": "5m", "ready-timeout": "10m"},
	"log-driver": {"duration": "10m", "request-timeout": "5m"},
	"line-cost":  {"lines": "2000000", "fsync-lines": "200000", "trials": "50"},
}

// stopsAfter are the StopAfter of a plan's pods, one a condition.
func stopsAfter(t *testing.T, e experiment.Experiment, args ...string) []time.Duration {
	t.Helper()
	p := planOf(t, e, 1, args...)
	ids := map[string]string{}
	for _, name := range p.Images() {
		ids[name] = "id-of-" + name
	}
	var stops []time.Duration
	for _, c := range p.Conditions() {
		stops = append(stops, p.Pod(c, "run", ids).StopAfter)
	}
	return stops
}

// TestEveryPodIsStoppedPastWhatItsPlanAllows: every pod of every experiment has a time
// after which the engine stops it (a conductor stuck past its own cap costs one run,
// never the matrix), beyond the grace the kit gives it, and it grows with every flag
// that lengthens runs, for the runs it lengthens.
func TestEveryPodIsStoppedPastWhatItsPlanAllows(t *testing.T) {
	for _, e := range All {
		name := e.Info().Name
		base := stopsAfter(t, e)
		for i, stop := range base {
			if stop <= experiment.OverrunGrace {
				t.Errorf("%s: pod %d is stopped after %v, want more than the grace %v", name, i, stop, experiment.OverrunGrace)
			}
		}
		if len(longer[name]) == 0 {
			t.Errorf("%s: no flag here that lengthens its runs", name)
		}
		for flag, value := range longer[name] {
			stops, later := stopsAfter(t, e, "--"+flag+"="+value), false
			for i := range min(len(stops), len(base)) {
				if stops[i] < base[i] {
					t.Errorf("%s --%s=%s: pod %d is stopped after %v, sooner than with the default (%v)", name, flag, value, i, stops[i], base[i])
				}
				later = later || stops[i] > base[i]
			}
			if !later {
				t.Errorf("%s --%s=%s: no pod is stopped later than with the default", name, flag, value)
			}
		}
	}
}
