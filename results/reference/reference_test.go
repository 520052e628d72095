package reference

import "testing"

func TestPublishedFiguresLoad(t *testing.T) {
	f, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, reader, metric string
		want                 float64
	}{
		{"json-sync", "slow", "p99_pooled", 3005},
		{"none", "fast", "p99_pooled", 3.54},
		{"json-queue", "slow", "backlog_max", 548 * 1024},
		{"json-queue", "slow", "rps_to_logs_read", 15.90},
	} {
		if have, ok := f.Lookup(tc.mode, tc.reader, tc.metric); !ok || have != tc.want {
			t.Errorf("%s/%s/%s = %v, %v; want %v", tc.mode, tc.reader, tc.metric, have, ok, tc.want)
		}
	}
	if _, ok := f.Lookup("none", "fast", "drain_mean"); ok {
		t.Error("a figure the article did not publish was found")
	}
}

// TestEveryExperimentHasItsPublication: each experiment's figures and setup parse.
func TestEveryExperimentHasItsPublication(t *testing.T) {
	for _, name := range []string{"fifo-stall", "qps", "line-cost"} {
		s, err := SetupOf(name)
		if err != nil || s.Source == "" {
			t.Errorf("%s: setup %+v, %v", name, s, err)
		}
		body, err := FiguresCSV(name)
		if err != nil || len(body) < 20 {
			t.Errorf("%s: figures %d bytes, %v", name, len(body), err)
		}
	}
	flat := MustSetup("fifo-stall").FlatParameters()
	if flat["parameters.limits.api_cpus"] != "0.25" || flat["parameters.apis"] != `["python"]` {
		t.Errorf("flat parameters %v", flat)
	}
}
