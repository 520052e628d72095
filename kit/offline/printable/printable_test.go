package printable

import (
	"bytes"
	"strings"
	"testing"
)

func TestStringShowsControlsInsteadOfSendingThem(t *testing.T) {
	for in, want := range map[string]string{
		"json-queue":                      "json-queue",
		"µs ≤ 1 ms…":                      "µs ≤ 1 ms…",
		"\x1b]0;owned\x07":                `\x1b]0;owned\x07`,
		"a\x1b[2Jb":                       `a\x1b[2Jb`,
		"line\nnext\tcol\r":               `line\x0anext\x09col\x0d`,
		"\u009b31m":                       `\x9b31m`,
		"evil\u202egnp.exe":               `evil\u202egnp.exe`,
		"bad \xff byte":                   `bad \xff byte`,
		"del\x7f":                         `del\x7f`,
		strings.Repeat("h", MaxMessage+9): strings.Repeat("h", MaxMessage) + "… (9 more bytes)",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriterKeepsLinesAndWholeCharacters(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	text := "mode \x1b[2Jjson ≤ µs\tok\n"
	// One byte a write: every multi-byte character is cut between writes.
	for i := range len(text) {
		w.Write([]byte{text[i]})
	}
	if want := "mode \\x1b[2Jjson ≤ µs\tok\n"; out.String() != want {
		t.Fatalf("%q, want %q", out.String(), want)
	}
}
