package experiment

import "testing"

func TestReasonIfJoinsOnlyWhatHolds(t *testing.T) {
	got := JoinFailures("exited", ReasonIf(false, "never"), ReasonIf(true, "%d responses were not 2xx", 3))
	if got != "exited; 3 responses were not 2xx" {
		t.Errorf("%q", got)
	}
}
