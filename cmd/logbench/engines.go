package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/engine"
)

// ComparisonFile is what `reproduce --engine A --engine B` writes beside the bundles:
// the experiment's comparison of them, as `logbench compare` prints it.
const ComparisonFile = "comparison.txt"

// engineRun is one engine of `reproduce --engine`.
type engineRun struct {
	name  string // as given: a context's name or an address
	label string // its bundle's folder name and its lines' prefix
	ep    engine.Endpoint
	t     *target
	dir   string
	exp   experiment.Experiment
	plan  plan
	err   error
	runs  int
	fails int
}

// reproduceOnEngines runs the same matrix on every engine named, one after another
// (or at once with --parallel), writes a bundle per engine under one folder and the
// comparison of them beside. Every engine is resolved and reached before anything
// starts (an unknown context or an engine that does not answer is bad input); an
// engine that fails later is named, and the others go on.
func reproduceOnEngines(c *cli.Context, exp experiment.Experiment, names []string) error {
	if c.String("resume") != "" {
		return usagef("--resume continues one bundle on the engine it was started on; it takes no --engine")
	}
	choice := engineChoice(c)
	var runs []*engineRun
	taken := map[string]bool{}
	for _, name := range names {
		ep, err := choice.Named(name)
		if err != nil {
			return usagef("--engine %s: %v", name, err)
		}
		label := safeName(strings.TrimPrefix(strings.TrimPrefix(name, "unix://"), "/"))
		for base, i := label, 2; taken[label]; i++ {
			label = fmt.Sprintf("%s-%d", base, i)
		}
		taken[label] = true
		runs = append(runs, &engineRun{name: name, label: label, ep: ep})
	}
	src, err := findSource(c)
	if err != nil {
		return err
	}
	root, err := outDir(c, src, "engines", time.Now())
	if err != nil {
		return err
	}
	out := &lockedWriter{w: c.App.Writer}
	closeAll := func() {
		for _, r := range runs {
			if r.t != nil {
				r.t.Target.Engine.Close()
			}
		}
	}
	for _, r := range runs {
		if r.exp, r.plan, err = reproducePlan(c, exp); err == nil {
			r.t, err = reach(c, r.ep, out.prefixed("["+r.label+"] "))
		}
		if err == nil {
			err = r.t.CheckPlatform(c.Bool("emulated"))
		}
		if err != nil {
			closeAll()
			return fmt.Errorf("--engine %s: %w", r.name, err)
		}
		r.dir = filepath.Join(root, r.label)
	}
	say(out, "reproducing on %d engines (%s), one bundle each under %s", len(runs), strings.Join(names, ", "), root)
	if c.Bool("parallel") {
		var wg sync.WaitGroup
		for _, r := range runs {
			wg.Add(1)
			go func() { defer wg.Done(); r.reproduce(c) }()
		}
		wg.Wait()
	} else {
		for _, r := range runs {
			if c.Context.Err() == nil {
				r.reproduce(c)
			}
		}
	}
	closeAll()
	if c.Context.Err() != nil {
		return interruptedError{Msg: fmt.Sprintf("interrupted: the bundles so far are under %s", root)}
	}

	var failures []string
	var sources []experiment.Source
	for _, r := range runs {
		switch {
		case r.err != nil:
			failures = append(failures, fmt.Sprintf("engine %s (%s): %v", r.name, r.ep.Host, r.err))
		case r.fails > 0:
			failures = append(failures, fmt.Sprintf("engine %s: %d of %d runs failed (kept in its bundle as failed, not as data)", r.name, r.fails, r.runs))
		}
		if _, err := os.Stat(r.dir); err != nil {
			continue
		}
		_, res, err := loadVerified(r.dir)
		if err != nil || res.Common == nil || res.Common.RunsCompleted == 0 {
			continue
		}
		sources = append(sources, experiment.Source{Label: r.label, Result: res})
	}
	say(out, "")
	switch {
	case len(sources) < 2:
		say(out, "no comparison: %d of %d engines left a bundle with runs", len(sources), len(runs))
	case emulatedAgainstNative(sources) != "":
		say(out, "no comparison: %s; `logbench compare --allow-emulated` sets them side by side anyway", emulatedAgainstNative(sources))
	default:
		var text bytes.Buffer
		err := exp.Compare(&text, &text, sources, experiment.CompareOptions{Format: "text"})
		if err == nil {
			err = os.WriteFile(filepath.Join(root, ComparisonFile), text.Bytes(), 0o644)
		}
		if err != nil {
			failures = append(failures, "comparison: "+err.Error())
		} else {
			out.Write(text.Bytes())
			say(out, "comparison: %s", filepath.Join(root, ComparisonFile))
		}
	}
	for _, r := range runs {
		say(out, "bundle %s: %s", r.label, r.dir)
	}
	if len(failures) > 0 {
		return errors.New(strings.Join(failures, "; "))
	}
	return nil
}

// reproduce performs the matrix on one engine; what goes wrong is kept in r.err.
func (r *engineRun) reproduce(c *cli.Context) {
	out := r.t.Out
	s, err := r.t.prepare(c, r.plan, r.dir)
	if err != nil {
		r.err = err
		say(out, "FAILED: %v", err)
		return
	}
	p := r.plan
	say(out, "reproducing %s: %d conditions x %d rounds = %d runs; bundle %s", r.exp.Name(), len(p.exp.Conditions()), p.exp.Rounds(), len(s.Runs), s.Matrix.Dir)
	sayNotes(out, p.exp)
	// The caller closes every engine once.
	outcome, err := s.Reproduce(c.Context, nil, func(done int, line string, verified bool) {
		say(out, "%2d/%d %s", done, len(s.Runs), line)
	})
	r.runs, r.fails = outcome.Runs, outcome.Failed
	if err != nil {
		r.err = err
		say(out, "FAILED: %v", err)
	}
}

// emulatedAgainstNative says why sources may not be set side by side: some ran
// emulated and some natively ("" when all are alike).
func emulatedAgainstNative(sources []experiment.Source) string {
	var emulated, native []string
	for _, s := range sources {
		if s.Result.Common.Emulated {
			emulated = append(emulated, s.Label)
		} else {
			native = append(native, s.Label)
		}
	}
	if len(emulated) == 0 || len(native) == 0 {
		return ""
	}
	return fmt.Sprintf("%s ran emulated (its figures time the emulator, not a measurement), %s natively", strings.Join(emulated, ", "), strings.Join(native, ", "))
}

// lockedWriter lets several engines' goroutines write whole lines to one writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// prefixed is a writer whose lines go to l whole, each with prefix.
func (l *lockedWriter) prefixed(prefix string) io.Writer {
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
