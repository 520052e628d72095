package contract

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// The Python and Node.js APIs write numbered lines of their own making. So that theirs
// are held to this package's bytes rather than to a second reading of the format, the
// lines below are kept in testdata/numbered_lines.txt, which their tests read (the
// images' test copies carry it to /kit/contract/testdata), and this test keeps the file
// true: it fails when the file and NumberedLine disagree, and -update rewrites it.
//
//	go test ./kit/contract -run TestNumberedLinesFixture -update

var updateFixtures = flag.Bool("update", false, "rewrite testdata/numbered_lines.txt and numbered_lines_long.txt from NumberedLineOf")

// numberedFixture is where the lines are kept: nothing but the lines, one after another.
var numberedFixture = filepath.Join("testdata", "numbered_lines.txt")

// fixtureSeqs are the numbers the file holds: each count of digits the first lines
// reach, round numbers, and the largest.
var fixtureSeqs = []int64{0, 1, 2, 9, 10, 42, 99, 100, 511, 512, 999, 1000, 65535, 123456789, 999_999_999_998, MaxNumberedSeq}

func numberedFixtureBytes() []byte {
	var out []byte
	for _, seq := range fixtureSeqs {
		out = AppendNumberedLine(out, seq)
	}
	return out
}

func TestNumberedLinesFixture(t *testing.T) {
	want := numberedFixtureBytes()
	if *updateFixtures {
		if err := os.WriteFile(numberedFixture, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(numberedFixture)
	if err != nil {
		t.Fatalf("%v (go test ./kit/contract -run TestNumberedLinesFixture -update writes it)", err)
	}
	if !bytes.Equal(have, want) {
		t.Fatalf("%s is not NumberedLine's lines for %v (go test ./kit/contract -run TestNumberedLinesFixture -update rewrites it)", numberedFixture, fixtureSeqs)
	}
	lines := bytes.SplitAfter(have, []byte{'\n'})
	if len(lines) != len(fixtureSeqs)+1 || len(lines[len(lines)-1]) != 0 {
		t.Fatalf("%s holds %d lines, want %d", numberedFixture, len(lines)-1, len(fixtureSeqs))
	}
	for i, line := range lines[:len(fixtureSeqs)] {
		if seq, ok := ParseNumberedLine(line); !ok || seq != fixtureSeqs[i] {
			t.Fatalf("line %d of %s reads back as %d, %v; want %d", i, numberedFixture, seq, ok, fixtureSeqs[i])
		}
	}
}

// numberedLongFixture holds lines of other lengths, each line its own: a test reads a
// line's length from where its newline is, and its number from its digits.
var numberedLongFixture = filepath.Join("testdata", "numbered_lines_long.txt")

// longFixtureLines are the lines the long file holds: the shortest and longest lengths,
// one past the shortest, and the lengths the experiment's figures use.
var longFixtureLines = []struct {
	seq   int64
	bytes int
}{{0, MinNumberedLineBytes}, {1, 129}, {42, 1000}, {512, 4096}, {123456789, 16 << 10}, {999_999_999_998, 16<<10 + 1}, {MaxNumberedSeq, MaxNumberedLineBytes}}

func TestNumberedLinesLongFixture(t *testing.T) {
	var want []byte
	for _, l := range longFixtureLines {
		want = AppendNumberedLineOf(want, l.seq, l.bytes)
	}
	if *updateFixtures {
		if err := os.WriteFile(numberedLongFixture, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(numberedLongFixture)
	if err != nil {
		t.Fatalf("%v (go test ./kit/contract -run TestNumberedLinesLongFixture -update writes it)", err)
	}
	if !bytes.Equal(have, want) {
		t.Fatalf("%s is not NumberedLineOf's lines for %v (go test ./kit/contract -run TestNumberedLinesLongFixture -update rewrites it)", numberedLongFixture, longFixtureLines)
	}
	lines := bytes.SplitAfter(have, []byte{'\n'})
	if len(lines) != len(longFixtureLines)+1 {
		t.Fatalf("%s holds %d lines, want %d", numberedLongFixture, len(lines)-1, len(longFixtureLines))
	}
	for i, l := range longFixtureLines {
		if seq, ok := ParseNumberedLineOf(lines[i], len(lines[i])); !ok || seq != l.seq || len(lines[i]) != l.bytes {
			t.Fatalf("line %d of %s (%d bytes) reads back as %d, %v; want %d of %d bytes", i, numberedLongFixture, len(lines[i]), seq, ok, l.seq, l.bytes)
		}
	}
}
