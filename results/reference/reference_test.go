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
