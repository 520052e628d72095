package linecost

import (
	"bytes"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Every Go library, in every shape it offers, writes the kit's template of that shape,
// time stamp and all, for each way; the disabled ways build nothing (lazy) or the
// message (eager) and write nothing.
func TestGoLibrariesWriteTheirTemplates(t *testing.T) {
	for _, lib := range Libraries {
		if lib.Language != "go" {
			continue
		}
		for _, line := range LineShapes {
			template, why := lib.Template(line)
			if template == "" {
				if why == "" || lib.NoShape == "" {
					t.Errorf("%s %s: not offered without a reason", lib.ID, line)
				}
				continue
			}
			t.Run(lib.ID+"/"+line, func(t *testing.T) {
				c := DefaultConfig(t.TempDir())
				c.Library, c.Line, c.Lines, c.FlushInterval = lib.ID, line, testLines, time.Hour
				want := ExpectedOf(template, testLines)
				// format: the lines handed to io.Discard, masked, are the template's.
				var got bytes.Buffer
				in, err := newLibraryInstance(lib, line, Format, "", wayOptions{}, &got)
				if err != nil {
					t.Fatal(err)
				}
				in.run(testLines)
				masked, raw := func() (a, b string) {
					mt := newMaskingTally(NewMasker(template))
					mt.Write(got.Bytes())
					m, r := mt.counts()
					return m.SHA256, r.SHA256
				}()
				if masked != want.SHA256 {
					t.Fatalf("format: %s", firstUnmasked(got.String(), template))
				}
				if strings.Contains(template, TimeMark) == (masked == raw) {
					t.Errorf("format: a time stamp in the template %v, in the lines %v", strings.Contains(template, TimeMark), masked != raw)
				}
				if in.user.built != testLines {
					t.Errorf("format: the user rendered %d times for %d lines", in.user.built, testLines)
				}
				for _, way := range []string{Buffered, Unbuffered, Fsync, Queue} {
					if way == Fsync && line != LineDefault {
						continue // a thousand fsyncs a shape add seconds and nothing of the library's
					}
					tr := runLibraryWay(t, c, way)
					if tr.File != want || tr.Generated != want {
						t.Errorf("%s: file %+v, generated %+v, want %+v", way, tr.File, tr.Generated, want)
					}
					if tr.FileRaw.Lines != testLines || tr.FileRaw.Bytes != tr.WrittenBytes {
						t.Errorf("%s: raw %+v, %d bytes written", way, tr.FileRaw, tr.WrittenBytes)
					}
					if way == Unbuffered && tr.WriteCalls != testLines || way == Fsync && tr.FsyncCalls != testLines {
						t.Errorf("%s: %d writes, %d fsyncs", way, tr.WriteCalls, tr.FsyncCalls)
					}
					if way == Buffered && (tr.WriteCalls*10 > testLines || tr.FsyncCalls > 1) {
						t.Errorf("buffered: %d writes and %d fsyncs for %d lines", tr.WriteCalls, tr.FsyncCalls, testLines)
					}
				}
				for _, way := range []string{DisabledLazy, DisabledEager} {
					tr := runLibraryWay(t, c, way)
					wantBuilt := int64(0)
					if way == DisabledEager {
						wantBuilt = testLines
					}
					if tr.ArgsBuilt != wantBuilt || tr.FileName != "" || tr.Generated != nothing() {
						t.Errorf("%s: built %d (want %d), file %q", way, tr.ArgsBuilt, wantBuilt, tr.FileName)
					}
				}
			})
		}
	}
}

func runLibraryWay(t *testing.T, c Config, way string) Trial {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tr, err := c.trial(way, fmt.Sprintf("linecost-test-%s-%s.log", c.Library, way))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestMasker(t *testing.T) {
	for _, tc := range []struct{ template, line, want string }{
		{"time={time} level=INFO seq={seq}", "time=2026-12-01T15:56:13.295Z level=INFO seq=7", "time={time} level=INFO seq=7"},
		{`{"ts":{time},"seq":{seq}}`, `{"ts":1796140573.2960563,"seq":12}`, `{"ts":{time},"seq":12}`},
		{"{time}\tinfo", "1.7961405732960732e+09\tinfo", "{time}\tinfo"},
		// zap read the clock within half a float64 step (119 ns at today's epoch) of a whole second.
		{`{"ts":{time},"seq":{seq}}`, `{"ts":1796407286,"seq":3}`, `{"ts":{time},"seq":3}`},
		{"{time} | INFO", "2026-12-01 15:56:13.295 | INFO", "{time} | INFO"},
		{"time={time} x", "time=2026-12-01 15:56:13,295 x", "time={time} x"},
		{`"timestamp":"{time}"`, `"timestamp":"2026-12-01T15:56:13.295123+00:00"`, `"timestamp":"{time}"`},
		{"time={time} x", "time=yesterday x", "time=yesterday x"}, // not a time stamp: left as it is
		{"level=INFO seq={seq}", "level=INFO seq=3", "level=INFO seq=3"},
	} {
		if have := string(NewMasker(tc.template).Line([]byte(tc.line))); have != tc.want {
			t.Errorf("%q over %q: %q, want %q", tc.template, tc.line, have, tc.want)
		}
	}
	// Lines split across writes are masked whole.
	mt := newMaskingTally(NewMasker("t={time} seq={seq}"))
	for _, p := range []string{"t=2026-12-01T00:00", ":00Z seq=0\nt=2026-12-01T00:00:01Z", " seq=1\n"} {
		mt.Write([]byte(p))
	}
	if m, _ := mt.counts(); m != ExpectedOf("t={time} seq={seq}", 2) {
		t.Fatalf("split lines: %+v", m)
	}
	if _, err := regexp.Compile(MaskPattern(Libraries[0].Lines[LineText])); err != nil {
		t.Fatal(err)
	}
	if !KnownTimePattern(TimePattern) || !KnownTimePattern(earlierTimePatterns[0]) || KnownTimePattern(".*") {
		t.Error("KnownTimePattern knows the wrong patterns")
	}
}

func TestLibraries(t *testing.T) {
	for _, lang := range []string{"go", "python", "node"} {
		if len(LibraryIDs(lang)) < 2 {
			t.Errorf("%s: libraries %v", lang, LibraryIDs(lang))
		}
	}
	// The first library of each language, without time, is the kit's line before lines
	// had a time stamp: old bundles verify against it.
	for _, lang := range []string{"go", "python", "node"} {
		if tmpl, _ := DefaultLibrary(lang).Template(LineTextNoTime); tmpl != LineFormat {
			t.Errorf("%s: %q", lang, tmpl)
		}
	}
	for _, l := range Libraries {
		if _, ok := l.Lines[l.Default]; !ok {
			t.Errorf("%s: its default shape %s has no template", l.ID, l.Default)
		}
		for shape, tmpl := range l.Lines {
			if strings.Contains(tmpl, TimeMark) == strings.HasSuffix(shape, "-notime") || !strings.Contains(tmpl, SeqMark) {
				t.Errorf("%s %s: template %q", l.ID, shape, tmpl)
			}
		}
	}
	c := DefaultConfig(t.TempDir())
	c.Library, c.Line = "zerolog", LineText
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), NotOfferedMark) {
		t.Errorf("zerolog text: %v", err)
	}
	c.Library = "log4j"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "unknown library") {
		t.Errorf("log4j: %v", err)
	}
}

// firstUnmasked names the first line of lines that the template's masker leaves unlike
// the template, for a failure that says which stamp the kit did not recognise.
func firstUnmasked(lines, template string) string {
	m := NewMasker(template)
	for i, line := range strings.Split(strings.TrimSuffix(lines, "\n"), "\n") {
		want := strings.TrimSuffix(string(AppendTemplate(nil, template, int64(i))), "\n")
		if have := string(m.Line([]byte(line))); have != want {
			return fmt.Sprintf("line %d is %q, masked %q, the template %q", i, line, have, template)
		}
	}
	return "every line masks to the template, yet the counts differ"
}
