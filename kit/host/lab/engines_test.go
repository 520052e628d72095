package lab

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLabelsAreFolderNamesOnceEach(t *testing.T) {
	have := Labels([]string{"default", "unix:///var/run/docker.sock", "tcp://10.0.0.2:2375", "default", "default"})
	want := []string{"default", "var_run_docker.sock", "tcp___10.0.0.2_2375", "default-2", "default-3"}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("(-want +have):\n%s", diff)
	}
}

// TestLinesKeepEachEnginesLinesWhole: a line written in pieces by one engine reaches
// the shared writer whole, with its engine's prefix, whatever another wrote between.
func TestLinesKeepEachEnginesLinesWhole(t *testing.T) {
	var buf bytes.Buffer
	l := NewLines(&buf)
	a, b := l.Prefixed("[a] "), l.Prefixed("[b] ")
	a.Write([]byte("one "))
	b.Write([]byte("two\nthree"))
	a.Write([]byte("line\n"))
	l.Write([]byte("shared\n"))
	b.Write([]byte("\n"))
	if want := "[b] two\n[a] one line\nshared\n[b] three\n"; buf.String() != want {
		t.Errorf("have %q, want %q", buf.String(), want)
	}
}
