package linecost

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
)

// The shapes of the line (--line). Every shape carries the same four fields after the
// level and the message; each library renders a shape with its own encoder, key names
// and order, so the same shape is a different line in each library (see Libraries).
const (
	// LineDefault is what the library writes when set up as its documentation shows:
	// its own default encoder, time stamp included. The default of --line.
	LineDefault = "default"
	// LineText is key=value text with the library's time stamp.
	LineText = "text"
	// LineTextNoTime is the same text without the time stamp: the kit's line before
	// lines carried one, so that old bundles still compare.
	LineTextNoTime = "text-notime"
	// LineJSON is one JSON object a line, with the library's time stamp.
	LineJSON = "json"
	// LineJSONNoTime is the same object without the time stamp.
	LineJSONNoTime = "json-notime"
)

// LineShapes lists them, the default first.
var LineShapes = []string{LineDefault, LineText, LineTextNoTime, LineJSON, LineJSONNoTime}

// LineShapeHelp documents them for --line.
const LineShapeHelp = "the line's shape: default (each library's own default line, time stamp included), " +
	"text, text-notime, json, json-notime (a library's own text or JSON encoder, with or without its time stamp); " +
	"a shape a library has no encoder for is not offered"

// The marks in a line template (LineCostDocument.LineFormat): the line's number in its
// trial, and where the library writes its time stamp.
const (
	SeqMark  = "{seq}"
	TimeMark = "{time}"
)

// TimePattern is what a time stamp may look like where a template has TimeMark: RFC
// 3339 or ISO 8601 with a T or a space, seconds to nanoseconds, with or without a zone;
// or seconds since the epoch as a decimal (zap's default), which has no fraction when the
// clock is read within half a float64 step of a whole second. The same regular
// expression in RE2, Python's re and JavaScript. A file is verified with each line's
// time stamp replaced by TimeMark: the kit regenerates everything else, byte for byte.
const TimePattern = `[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?|[0-9]+(?:\.[0-9]+)?(?:e[+-][0-9]+)?`

// earlierTimePatterns are the kit's time patterns before TimePattern. Each matches only
// stamps TimePattern matches, so a program that masked with one masked what the kit
// would have: a bundle that recorded one is not refused for it.
var earlierTimePatterns = []string{
	`[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?|[0-9]+\.[0-9]+(?:e[+-][0-9]+)?`,
}

// KnownTimePattern reports whether pattern is the kit's time pattern, now or earlier.
func KnownTimePattern(pattern string) bool {
	return pattern == TimePattern || slices.Contains(earlierTimePatterns, pattern)
}

// AppendTemplate appends line seq of template as the kit regenerates it: {seq} is
// seq, a time stamp stays TimeMark; newline included.
func AppendTemplate(b []byte, template string, seq int64) []byte {
	before, after, ok := strings.Cut(template, SeqMark)
	b = append(b, before...)
	if ok {
		b = strconv.AppendInt(b, seq, 10)
		b = append(b, after...)
	}
	return append(b, '\n')
}

// ExpectedOf is what lines calls of an enabled way generate with template: lines
// 0..lines-1, time stamps masked.
func ExpectedOf(template string, lines int64) contract.Counts {
	t := newTally()
	buf := make([]byte, 0, 64<<10)
	for seq := range lines {
		buf = AppendTemplate(buf, template, seq)
		if len(buf) > 60<<10 {
			t.Write(buf)
			buf = buf[:0]
		}
	}
	t.Write(buf)
	return t.counts()
}

// Masker replaces the time stamp of each line that has the template's shape with
// TimeMark; a line of another shape is left as it is, and fails the comparison.
type Masker struct {
	re *regexp.Regexp // nil: the template has no time stamp
}

// NewMasker is template's masker.
func NewMasker(template string) Masker {
	before, after, ok := strings.Cut(template, TimeMark)
	if !ok {
		return Masker{}
	}
	return Masker{re: regexp.MustCompile(`^(` + literal(before) + `)(?:` + TimePattern + `)(` + literal(after) + `)$`)}
}

// MaskPattern is the regular expression a masker matches a line with (without its
// newline), for the Python and Node.js programs' tests: "" for a template without time.
func MaskPattern(template string) string {
	if m := NewMasker(template); m.re != nil {
		return m.re.String()
	}
	return ""
}

func literal(s string) string {
	parts := strings.Split(s, SeqMark)
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return strings.Join(parts, "[0-9]+")
}

// Line masks one line, without its newline.
func (m Masker) Line(line []byte) []byte {
	if m.re == nil {
		return line
	}
	sub := m.re.FindSubmatchIndex(line)
	if sub == nil {
		return line
	}
	out := make([]byte, 0, len(line))
	out = append(out, line[sub[2]:sub[3]]...)
	out = append(out, TimeMark...)
	return append(out, line[sub[4]:sub[5]]...)
}

// maskingTally counts a stream twice: as it is (raw) and with each line masked.
type maskingTally struct {
	m        Masker
	raw, out *tally
	partial  []byte
}

func newMaskingTally(m Masker) *maskingTally {
	return &maskingTally{m: m, raw: newTally(), out: newTally()}
}

func (t *maskingTally) Write(p []byte) (int, error) {
	t.raw.Write(p)
	if t.m.re == nil {
		return t.out.Write(p)
	}
	data := p
	if len(t.partial) > 0 {
		data = append(t.partial, p...)
		t.partial = nil
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		t.out.Write(t.m.Line(data[:i]))
		t.out.Write([]byte{'\n'})
		data = data[i+1:]
	}
	t.partial = append(t.partial, data...)
	return len(p), nil
}

// counts: masked, raw. A last line without its newline is counted as it is.
func (t *maskingTally) counts() (contract.Counts, contract.Counts) {
	if len(t.partial) > 0 {
		t.out.Write(t.m.Line(t.partial))
		t.partial = nil
	}
	return t.out.counts(), t.raw.counts()
}
