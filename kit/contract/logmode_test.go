package contract

import (
	"slices"
	"testing"
)

// TestNumberedIsTheAPIsModeButNotPublished: the API takes numbered, fifo-stall's list
// and parser do not.
func TestNumberedIsTheAPIsModeButNotPublished(t *testing.T) {
	if m, err := ParseLogMode("numbered"); err != nil || m != ModeNumbered {
		t.Fatalf("ParseLogMode(numbered) = %q, %v", m, err)
	}
	if _, err := ParsePublishedLogMode("numbered"); err == nil {
		t.Fatal("fifo-stall's parser took numbered")
	}
	if slices.Contains(LogModes, ModeNumbered) || slices.Contains(LogModeNames(), "numbered") || len(LogModes) != 7 {
		t.Fatalf("published modes %v", LogModeNames())
	}
	for _, m := range LogModes {
		if have, err := ParsePublishedLogMode(string(m)); err != nil || have != m {
			t.Fatalf("ParsePublishedLogMode(%q) = %q, %v", m, have, err)
		}
		if have, err := ParseLogMode(string(m)); err != nil || have != m {
			t.Fatalf("ParseLogMode(%q) = %q, %v", m, have, err)
		}
	}
	if _, err := ParseLogMode("json-async"); err == nil {
		t.Fatal("ParseLogMode took an unknown mode")
	}
	if ModeNumbered.BytesPerRequest() != NumberedLineBytes || ModeNumbered.LinesPerRequest() != 1 || ModeNumbered.Queued() {
		t.Fatalf("numbered: %d bytes, %d lines, queued %v", ModeNumbered.BytesPerRequest(), ModeNumbered.LinesPerRequest(), ModeNumbered.Queued())
	}
}
