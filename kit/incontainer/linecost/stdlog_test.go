package linecost

import (
	"io"
	"log"
	"testing"
)

// The standard library's log package, which the package comment sets beside slog: a
// Logger writing to io.Discard skips formatting, so its Printf is lazy about rendering
// (though not about evaluating its arguments); one writing anywhere else formats every
// line, with one Write per line.
func TestStdLogDiscardSkipsFormatting(t *testing.T) {
	u := &user{name: userName}
	log.New(io.Discard, "", 0).Printf("served seq=%d user=%s path=%s status=%d", 1, u, itemPath, httpStatus)
	if u.built != 0 {
		t.Fatalf("a discarding log.Logger rendered its argument %d times", u.built)
	}
	var w countingWriter
	l := log.New(&w, "", 0)
	for seq := range 3 {
		l.Printf("served seq=%d user=%s path=%s status=%d", seq, u, itemPath, httpStatus)
	}
	if u.built != 3 || w.writes != 3 {
		t.Fatalf("rendered %d times, %d writes; want 3 and 3", u.built, w.writes)
	}
}

type countingWriter struct{ writes int }

func (w *countingWriter) Write(p []byte) (int, error) { w.writes++; return len(p), nil }

// BenchmarkStdLog is log.Printf of the same line: formatted and handed to a writer that
// discards it, and to io.Discard itself, which log recognises.
func BenchmarkStdLog(b *testing.B) {
	u := &user{name: userName}
	for _, tc := range []struct {
		name string
		out  io.Writer
	}{{"format", &countingWriter{}}, {"discard", io.Discard}} {
		b.Run(tc.name, func(b *testing.B) {
			l := log.New(tc.out, "", 0)
			b.ReportAllocs()
			for seq := range b.N {
				l.Printf("served seq=%d user=%s path=%s status=%d", seq, u, itemPath, httpStatus)
			}
		})
	}
}
