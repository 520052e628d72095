package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/logbench/logbench/kit/host/bench"
	"github.com/logbench/logbench/kit/host/calibrate"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
	"github.com/logbench/logbench/results/reference"
)

func reproduceCommand() *cli.Command {
	return &cli.Command{
		Name:  "reproduce",
		Usage: "rerun the whole published experiment (7 modes x 2 readers x 3 rounds) and put every figure beside the published one",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "modes", Value: strings.Join(logmode.Names(), ","), Usage: "logging modes, comma-separated"},
			&cli.StringFlag{Name: "readers", Value: strings.Join(bench.Readers, ","), Usage: "readers, comma-separated"},
			&cli.IntFlag{Name: "reps", Value: 3, Usage: "rounds; each starts the matrix at another position"},
			&cli.StringFlag{Name: "resume", Usage: "continue an interrupted bundle: run only its missing runs, with its parameters"},
			&cli.BoolFlag{Name: "calibrate", Value: true, Usage: "measure the instrument first and record it in the manifest (--calibrate=false to skip)"},
		}, runFlags(bench.PythonAPI)...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("reproduce takes no arguments, got %q", c.Args().First())
			}
			p, err := reproducePlan(c)
			if err != nil {
				return err
			}
			pub, err := reference.Load()
			if err != nil {
				return err
			}
			s, err := prepare(c, p)
			if err != nil {
				return err
			}
			conds, reps, settings := p.conds, p.rounds, p.settings
			out := c.App.Writer
			say(out, "reproducing: %d conditions x %d rounds = %d runs, %d requests each; bundle %s", len(conds), reps, len(s.runs), settings.Protocol.Count(), s.matrix.Dir)
			if c.Bool("calibrate") && p.resume == nil {
				say(out, "calibrating the instrument on this engine (about a minute)")
				quiet := *s.matrix.Runner
				quiet.Progress = io.Discard
				cal, err := calibrate.Run(c.Context, &quiet, calibrate.Defaults)
				cal.ImageBuildS = s.imageBuild.Seconds()
				if err != nil {
					if c.Context.Err() != nil {
						return interruptedError{"interrupted while calibrating; nothing was measured"}
					}
					say(out, "WARNING: calibration failed, the manifest will have none: %v", err)
				} else {
					s.matrix.Bundle.Manifest.Calibration = &cal
					say(out, "send lag p99 %.3f ms at %g req/s; slow reader %.0f B/s (bound %d); capacity %.0f req/s on %g CPU; overhead %.2f s/run",
						cal.SendLagP99Ms, cal.RateRPS, cal.ReaderAchievedBytesPerS, cal.ReaderBoundBytesPerS, cal.CapacityRPS, cal.CapacityCPUs, cal.RunOverheadS)
				}
			}
			bar := newBar(c.App.ErrWriter, len(s.runs))
			s.matrix.Runner.Progress = io.Discard
			s.matrix.OnStart = func(i int, pr bench.PlannedRun) {
				bar.Describe(fmt.Sprintf("run %d/%d %s round %d", i+1, len(s.runs), pr.Condition, pr.Round))
			}
			failed := 0
			s.matrix.OnRun = func(done int, rows bundle.Rows) {
				bar.Clear()
				r := rows.Run
				state := "verified"
				if !r.Verified {
					state, failed = "FAILED: "+r.Failure, failed+1
				}
				say(out, "%2d/%d %-28s p99 %-10s drain %6.2f s  overhead %.2f s  %s", done, len(s.runs),
					r.API+"/"+r.Mode+"/"+r.Reader, ms(float64(r.P99Ms)), r.DrainS, r.OverheadS, state)
				bar.Add(1)
			}
			started := time.Now()
			runErr := s.execute(c.Context)
			bar.Finish()
			b := s.matrix.Bundle
			if len(b.Runs) > 0 {
				say(out, "")
				compare.Published(b.Conditions, pub).Write(out, "text")
				say(out, "")
				say(out, "published: %s; model: the FIFO/reader arithmetic (pipe capacity from the kernel)", reference.Source)
				if d := unlikePublished(b.Manifest.Parameters); len(d) > 0 {
					say(out, "NOTE: this protocol is not the published one (%s): the pub columns are not like for like", strings.Join(d, ", "))
				}
				inherent := 0.0
				for _, r := range b.Runs {
					inherent += r.Run.InherentS
				}
				wall := time.Since(started).Seconds()
				say(out, "wall time %.0f s for %.0f s of warm-ups, loads and drains (ratio %.2f)", wall, inherent, wall/max(inherent, 1e-9))
			}
			say(out, "bundle: %s", s.matrix.Dir)
			if runErr != nil {
				return runErr
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d runs failed; they are kept in runs.csv as failed, not as data", failed, len(s.runs))
			}
			return nil
		},
	}
}

// unlikePublished lists where p departs from the article's protocol.
func unlikePublished(p bundle.Params) []string {
	l := p.Limits
	var d []string
	for _, c := range []struct {
		name      string
		have, pub float64
	}{
		{"rate", p.RateRPS, 20}, {"duration_s", p.DurationS, 8}, {"warmup", float64(p.WarmupRequests), 2},
		{"api_cpus", l.APICPUs, 0.25}, {"api_memory_mib", float64(l.APIMemoryBytes >> 20), 128},
		{"reader_cpus", l.ReaderCPUs, 0.25}, {"loadgen_cpus", l.LoadgenCPUs, 0.25},
	} {
		if c.have != c.pub {
			d = append(d, fmt.Sprintf("%s %g, published %g", c.name, c.have, c.pub))
		}
	}
	return d
}

// reproducePlan validates the flags, or takes everything from the bundle to resume.
func reproducePlan(c *cli.Context) (plan, error) {
	if dir := c.String("resume"); dir != "" {
		for _, f := range c.FlagNames() {
			if f != "resume" && f != "source" && c.IsSet(f) {
				return plan{}, usagef("--%s: --resume takes every parameter from the bundle", f)
			}
		}
		files, err := bundle.ReadFolder(dir)
		if err != nil {
			return plan{}, usagef("--resume %s: %v", dir, err)
		}
		checked := verify.Verify(files)
		if !checked.OK() {
			return plan{}, usagef("--resume %s: the bundle does not verify (%d problems, the first: %s); see logbench verify %s",
				dir, len(checked.Problems), checked.Problems[0], dir)
		}
		b := checked.Bundle
		if b.Manifest.Command != "reproduce" {
			return plan{}, usagef("--resume %s: a bundle of %q, not of reproduce", dir, b.Manifest.Command)
		}
		mp := b.Manifest.Parameters
		p := plan{command: "reproduce", rounds: mp.Rounds, params: mp, settings: settingsOf(mp), resume: b, resumeDir: dir}
		for _, api := range mp.APIs {
			for _, m := range mp.Modes {
				for _, r := range mp.Readers {
					p.conds = append(p.conds, bench.Condition{API: api, Mode: logmode.Mode(m), Reader: r})
				}
			}
		}
		return p, nil
	}
	conds, err := conditionsFrom(c)
	if err != nil {
		return plan{}, err
	}
	reps := c.Int("reps")
	if reps < 1 || reps > 100 {
		return plan{}, usagef("--reps %d: want 1 to 100", reps)
	}
	settings, params, err := settingsFrom(c)
	if err != nil {
		return plan{}, err
	}
	return plan{command: "reproduce", conds: conds, rounds: reps, params: params, settings: settings}, nil
}

// conditionsFrom validates --modes, --readers and --api into the matrix's conditions.
func conditionsFrom(c *cli.Context) ([]bench.Condition, error) {
	var modes []logmode.Mode
	for _, name := range splitList(c.String("modes")) {
		m, err := logmode.Parse(name)
		if err != nil {
			return nil, usagef("--modes: %v", err)
		}
		modes = append(modes, m)
	}
	readers := splitList(c.String("readers"))
	for _, r := range readers {
		if _, err := bench.ReaderRate(r); err != nil {
			return nil, usagef("--readers: %v", err)
		}
	}
	if len(modes) == 0 || len(readers) == 0 {
		return nil, usagef("--modes and --readers need at least one each")
	}
	apis, err := bench.ParseAPIs(c.String("api"))
	if err != nil {
		return nil, usagef("--api: %v", err)
	}
	var conds []bench.Condition
	for _, api := range apis {
		for _, m := range modes {
			for _, r := range readers {
				conds = append(conds, bench.Condition{API: api, Mode: m, Reader: r})
			}
		}
	}
	return conds, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = appendOnce(out, f)
		}
	}
	return out
}

// newBar shows the matrix's progress and time left on a terminal, and nothing elsewhere.
func newBar(w io.Writer, runs int) *progressbar.ProgressBar {
	f, isFile := w.(*os.File)
	return progressbar.NewOptions(runs,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(isFile && term.IsTerminal(int(f.Fd()))),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetWidth(30),
	)
}
