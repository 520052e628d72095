// Package printable makes text that comes from a bundle safe to show on a terminal: a
// control character (an escape sequence can set a window's title or clear the screen),
// a C1 control, a bidirectional override or a byte that is not UTF-8 is shown as an
// escape (\x1b, \u202e, \xff) instead of being sent, and a value or message is cut to a
// length a reader can take in.
//
// String is for one value or message; NewWriter escapes a whole command's output on its
// way to the terminal, keeping its newlines and tabs.
package printable

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxMessage is the most of a message String keeps, in bytes: a few lines of a
// terminal, however long the header or value a hostile file holds.
const MaxMessage = 400

// String escapes s (newlines and tabs too: a value is one piece of one line) and cuts it
// to MaxMessage bytes, saying how much was cut.
func String(s string) string { return Cut(Escape(s, false), MaxMessage) }

// Escape shows every character that is not safe to print as an escape. With keepLines,
// newlines and tabs pass as they are.
func Escape(s string, keepLines bool) string {
	if safe(s, keepLines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case unsafe(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Cut keeps at most max bytes of s (whole characters), saying how many were left out.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	keep := max
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:keep], len(s)-keep)
}

func safe(s string, keepLines bool) bool {
	for _, r := range s {
		if r == utf8.RuneError || unsafe(r) && !(keepLines && (r == '\n' || r == '\t')) {
			return false
		}
	}
	return true
}

// unsafe are the characters a terminal acts on or that reorder what it shows: C0 and
// C1 controls, DEL, and the bidirectional formatting characters.
func unsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// NewWriter returns a writer that escapes what passes through it as Escape does,
// keeping newlines and tabs; a character cut between two writes is held until the next.
func NewWriter(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct {
	w       io.Writer
	pending []byte // the start of a character the last write cut
}

func (e *writer) Write(p []byte) (int, error) {
	buf := append(e.pending, p...)
	e.pending = nil
	// Hold back an incomplete last character (at most 3 bytes) for the next write.
	if tail := incompleteTail(buf); tail > 0 {
		e.pending = append([]byte(nil), buf[len(buf)-tail:]...)
		buf = buf[:len(buf)-tail]
	}
	if _, err := io.WriteString(e.w, Escape(string(buf), true)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// incompleteTail is the length of a UTF-8 sequence begun but not finished at the end of
// b, 0 if there is none.
func incompleteTail(b []byte) int {
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if utf8.RuneStart(c) {
			if c >= 0xc0 && !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
