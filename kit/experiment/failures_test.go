package experiment

import "testing"

func TestFailuresJoinTheChecksThatDoNotHold(t *testing.T) {
	var f Failures
	if f.String() != "" {
		t.Fatalf("no check: %q, want empty", f.String())
	}
	f.Unless(true, "never said")
	f.Unless(false, "%d lines, want %d", 3, 4)
	f.Unless(1 > 2, "no file")
	if got, want := f.String(), "3 lines, want 4; no file"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := JoinFailures("engine", f.String()); got != "engine; 3 lines, want 4; no file" {
		t.Fatalf("joined: %q", got)
	}
}
