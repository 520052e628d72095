package main

import (
	"errors"
	"flag"
	"fmt"
	"math"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/incontainer/logmode"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "perform one run of one logging mode with one reader, and write a bundle",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "mode", Value: string(logmode.JSONSync), Usage: "logging mode: " + joinNames(logmode.Names())},
			&cli.StringFlag{Name: "reader", Value: fifostall.SlowReader, Usage: "reader: fast or slow (256 KiB/s at most)"},
		}, append(flagUsage(cliFlags(runFlags(fifostall.GoAPI)), "api", "API implementation: go (net/http) or python (the article's asyncio API); reproduce runs several"), targetFlags()...)...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("run takes no arguments, got %q", c.Args().First())
			}
			mode, err := logmode.Parse(c.String("mode"))
			if err != nil {
				return usagef("--mode: %v", err)
			}
			if _, err := fifostall.ReaderRate(c.String("reader")); err != nil {
				return usagef("--reader: %v", err)
			}
			fs := runFlags(fifostall.GoAPI)
			if err := parseFlags(c, fs); err != nil {
				return err
			}
			params, err := fifostall.ParamsFrom(fs)
			if err != nil {
				return err
			}
			if len(params.APIs) != 1 {
				return usagef("--api %s: one run has one API (go or python); reproduce runs all", c.String("api"))
			}
			cond := fifostall.Cond{API: params.APIs[0], Mode: string(mode), Reader: c.String("reader")}
			p := fifostall.NewPlan([]fifostall.Cond{cond}, 1, params)
			s, err := prepare(c, plan{command: "run", exp: p})
			if err != nil {
				return err
			}
			out := c.App.Writer
			pr := p.Settings.Protocol
			say(out, "run %s: %d requests at %g req/s after %d warm-up", cond, pr.Count(), pr.Rate, pr.WarmupCount)
			err = s.Run(c.Context)
			s.Target.Engine.Close()
			if err != nil {
				return err
			}
			last := p.FIFO().Last.Run
			printSummary(out, last)
			if common := p.Bundle().Common(); common.Emulated {
				say(out, "EMULATED: %s under emulation on a %s engine; these figures time the emulator and are not a measurement", common.Platform, common.Engine.Platform)
			}
			say(out, "bundle: %s", s.Matrix.Dir)
			if !last.Verified {
				return errors.New("run failed: " + last.Failure)
			}
			return nil
		},
	}
}

// runFlags are the flags of the commands that perform fifo-stall's runs (run,
// calibrate), with the command's default API.
func runFlags(defaultAPI string) *experiment.Flags {
	return experiment.NewFlags("run", func(fs *flag.FlagSet) { fifostall.DeclareRunFlags(fs, defaultAPI) })
}

func printSummary(w interface{ Write([]byte) (int, error) }, r schema.RunRow) {
	match := "match"
	switch {
	case r.SHA256Writer == "" || r.SHA256Reader == "":
		match = "not available: the counters were not collected"
	case r.SHA256Writer != r.SHA256Reader || r.BytesWritten != r.BytesRead || r.LinesWritten != r.LinesRead:
		match = "MISMATCH"
	}
	say(w, "requests      %d (%d errors)", r.Requests, r.Errors)
	say(w, "latency       p50 %s  p99 %s  max %s (from the scheduled send)", ms(float64(r.P50Ms)), ms(float64(r.P99Ms)), ms(float64(r.MaxMs)))
	say(w, "log bytes     written %d, read %d; lines %d / %d", r.BytesWritten, r.BytesRead, r.LinesWritten, r.LinesRead)
	say(w, "sha-256       %s (%.16s…)", match, r.SHA256Writer)
	say(w, "drain         %.3f s after the last response; max backlog %s", r.DrainS, formatBytes(r.BacklogMaxBytes))
	say(w, "api cpu       %.4f cores (mean, after warm-up to the last response)", r.APICPUCores)
	if r.Verified {
		say(w, "verified      yes")
	} else {
		say(w, "verified      NO: %s", r.Failure)
	}
}

func ms(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if v >= 1000 {
		return fmt.Sprintf("%.3f s", v/1000)
	}
	return fmt.Sprintf("%.2f ms", v)
}
