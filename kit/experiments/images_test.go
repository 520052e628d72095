package experiments_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
)

// TestEveryExperimentNamesItsImages: `logbench build --experiment NAME` prebuilds
// exactly what the experiment's runs need, every API's image unless --api chooses one,
// and refuses an API the experiment does not have.
func TestEveryExperimentNamesItsImages(t *testing.T) {
	want := map[string]map[string][]string{
		"fifo-stall": {"": {"api", "api-python", "reader", "loadgen"}, "go": {"api", "reader", "loadgen"}, "python": {"api-python", "reader", "loadgen"}},
		"qps":        {"": {"api-node", "api", "api-python", "qpsload", "wrk"}, "all": {"api-node", "api", "api-python", "qpsload", "wrk"}, "node": {"api-node", "qpsload", "wrk"}},
		"line-cost":  {"": {"api", "api-python", "api-node"}, "node": {"api-node"}},
		"your-api":   {"": {"qpsload"}},
		"log-driver": {"": {"api", "api-python", "api-node", "loadgen", "reader", "rsyslog", "syslog-ng", "qpsload"}},
	}
	for _, e := range experiments.All {
		imager, ok := e.(experiment.Imager)
		if !ok {
			t.Errorf("%s names no images for build", e.Info().Name)
			continue
		}
		if len(want[e.Info().Name]) == 0 {
			t.Errorf("%s: no expectation here", e.Info().Name)
		}
		for api, names := range want[e.Info().Name] {
			have, err := imager.ImagesFor(api)
			if err != nil || !cmp.Equal(have, names) {
				t.Errorf("%s --api %q: %v, %v; want %v", e.Info().Name, api, have, err, names)
			}
		}
		var usage experiment.UsageError
		if _, err := imager.ImagesFor("cobol"); !errors.As(err, &usage) {
			t.Errorf("%s --api cobol: %v, want bad input", e.Info().Name, err)
		}
	}
}
