package lab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/precision"
)

// ComparisonFile is what a reproduction on several engines writes beside the bundles:
// the experiment's comparison of them, as `logbench compare` prints it.
const ComparisonFile = "comparison.txt"

// OnEngine is one engine of a reproduction on several: reached, and its plan validated.
type OnEngine struct {
	Name   string // as given: a context's name or an address
	Label  string // its bundle's folder under the root, and its lines' prefix (Labels)
	Target *Target
	Plan   experiment.Plan

	// Set by Several.Reproduce: the bundle's folder, the runs performed and those not
	// data, and what stopped the engine's matrix.
	Dir          string
	Runs, Failed int
	Err          error
}

// Several performs one experiment's matrix on several engines, one after another or at
// once, a bundle each under Root, and compares the bundles. What goes wrong on one
// engine is kept on it, and the others go on.
type Several struct {
	Experiment experiment.Experiment
	Engines    []*OnEngine
	Root       string
	Parallel   bool
	// Options are every engine's session's; Dir is each engine's own folder.
	Options Options
	// Out gets the lines that are no one engine's; each engine's Target.Out its own.
	Out io.Writer
}

// Reproduce performs the matrix on every engine, then writes the comparison of the
// bundles that verify and hold runs to Out and to ComparisonFile under Root. The error
// names every engine that failed or has failed runs; an interrupt is Interrupted. The
// caller closes the engines.
func (s *Several) Reproduce(ctx context.Context) error {
	names := make([]string, len(s.Engines))
	for i, e := range s.Engines {
		names[i] = e.Name
		e.Dir = filepath.Join(s.Root, e.Label)
	}
	fmt.Fprintf(s.Out, "reproducing on %d engines (%s), one bundle each under %s\n", len(s.Engines), strings.Join(names, ", "), s.Root)
	if s.Parallel {
		var wg sync.WaitGroup
		for _, e := range s.Engines {
			wg.Go(func() { e.reproduce(ctx, s.Experiment, s.Options) })
		}
		wg.Wait()
	} else {
		for _, e := range s.Engines {
			if ctx.Err() == nil {
				e.reproduce(ctx, s.Experiment, s.Options)
			}
		}
	}
	if ctx.Err() != nil {
		return Interrupted{fmt.Sprintf("interrupted: the bundles so far are under %s", s.Root)}
	}

	var failures []string
	var sources []experiment.Source
	misused := 0 // engines that refused the command as given (a driver one lacks)
	for _, e := range s.Engines {
		var usage experiment.UsageError
		if errors.As(e.Err, &usage) {
			misused++
		}
		switch {
		case e.Err != nil:
			failures = append(failures, fmt.Sprintf("engine %s (%s): %v", e.Name, e.Target.Endpoint, e.Err))
		case e.Failed > 0:
			failures = append(failures, fmt.Sprintf("engine %s: %d of %d runs failed (kept in its bundle as failed, not as data)", e.Name, e.Failed, e.Runs))
		}
		if src, ok := s.source(e); ok {
			sources = append(sources, src)
		}
	}
	fmt.Fprintln(s.Out)
	switch why := experiment.EmulatedAgainstNative(sources); {
	case len(sources) < 2:
		fmt.Fprintf(s.Out, "no comparison: %d of %d engines left a bundle with runs\n", len(sources), len(s.Engines))
	case why != "":
		fmt.Fprintf(s.Out, "no comparison: %s; `logbench compare --allow-emulated` sets them side by side anyway\n", why)
	default:
		var text bytes.Buffer
		err := s.Experiment.Compare(&text, &text, sources, experiment.CompareOptions{Format: "text"})
		if err == nil {
			err = os.WriteFile(filepath.Join(s.Root, ComparisonFile), text.Bytes(), 0o644)
		}
		if err != nil {
			failures = append(failures, "comparison: "+err.Error())
		} else {
			s.Out.Write(text.Bytes())
			fmt.Fprintf(s.Out, "comparison: %s\n", filepath.Join(s.Root, ComparisonFile))
		}
	}
	for _, e := range s.Engines {
		fmt.Fprintf(s.Out, "bundle %s: %s\n", e.Label, e.Dir)
	}
	switch {
	case len(failures) > 0 && misused == len(failures):
		return experiment.Usagef("%s", strings.Join(failures, "; "))
	case len(failures) > 0:
		return errors.New(strings.Join(failures, "; "))
	}
	return nil
}

// source is e's bundle to compare: one that verifies and holds runs.
func (s *Several) source(e *OnEngine) (experiment.Source, bool) {
	if _, err := os.Stat(e.Dir); err != nil {
		return experiment.Source{}, false
	}
	files, err := bundle.Open(e.Dir)
	if err != nil {
		return experiment.Source{}, false
	}
	res := s.Experiment.Verify(files)
	res.Name = e.Dir
	if !res.OK() || res.Common == nil || res.Common.RunsCompleted == 0 {
		return experiment.Source{}, false
	}
	return experiment.Source{Label: e.Label, Result: res}, true
}

// reproduce performs the matrix on one engine; what goes wrong is kept in e.Err.
func (e *OnEngine) reproduce(ctx context.Context, exp experiment.Experiment, o Options) {
	out := e.Target.Out
	o.Dir, o.Resuming, o.Offline = e.Dir, false, exp
	s, err := Prepare(ctx, e.Target, e.Plan, o)
	if err != nil {
		e.Err = err
		fmt.Fprintf(out, "FAILED: %v\n", err)
		return
	}
	s.OnRound = func(p bundle.Precision) { fmt.Fprintln(out, precision.Line(&p)) }
	fmt.Fprintf(out, "reproducing %s: %d conditions x %d rounds = %d runs; bundle %s\n", exp.Info().Name, len(e.Plan.Conditions()), e.Plan.Rounds(), len(s.Runs), s.Matrix.Dir)
	if n, ok := e.Plan.(experiment.Noter); ok {
		for _, note := range n.Notes() {
			fmt.Fprintf(out, "  %s\n", note)
		}
	}
	outcome, err := s.Reproduce(ctx, nil, func(done int, line string, verified bool) {
		fmt.Fprintf(out, "%2d/%d %s\n", done, len(s.Runs), line)
	})
	e.Runs, e.Failed = outcome.Runs, outcome.Failed
	if err != nil {
		e.Err = err
		fmt.Fprintf(out, "FAILED: %v\n", err)
	}
}

// Labels names each engine's bundle folder after the engine as given, made safe for a
// file name and unique ("default", "tcp_host_2375", "default-2").
func Labels(names []string) []string {
	taken := map[string]bool{}
	labels := make([]string, len(names))
	for i, name := range names {
		label := FolderName(strings.TrimPrefix(strings.TrimPrefix(name, "unix://"), "/"))
		for base, n := label, 2; taken[label]; n++ {
			label = fmt.Sprintf("%s-%d", base, n)
		}
		taken[label] = true
		labels[i] = label
	}
	return labels
}

// FolderName makes s safe as a folder's name: every character but letters, digits,
// '-' and '.' becomes '_'.
func FolderName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// Lines lets several engines' goroutines write whole lines to one writer, each
// engine's with its own prefix.
type Lines struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLines writes whole lines to w.
func NewLines(w io.Writer) *Lines { return &Lines{w: w} }

func (l *Lines) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// Prefixed is a writer whose lines go to l whole, each with prefix.
func (l *Lines) Prefixed(prefix string) io.Writer {
	return &lineBuffer{to: l, prefix: prefix}
}

type lineBuffer struct {
	mu     sync.Mutex
	to     io.Writer
	prefix string
	buf    []byte
}

func (b *lineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	for {
		i := bytes.IndexByte(b.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		b.to.Write(append([]byte(b.prefix), b.buf[:i+1]...))
		b.buf = b.buf[i+1:]
	}
}
