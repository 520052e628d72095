package fifostall

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

var (
	_ experiment.Imager       = Experiment
	_ experiment.SingleRunner = Experiment
	_ experiment.RunReporter  = singlePlan{}
)

// ImagesFor names the images of api's runs ("" or "all": both APIs'), with the reader
// and the load generator of either client topology.
func (plugin) ImagesFor(api string) ([]string, error) {
	return experiment.ImagesOfChoice(api, "fifo-stall measures the APIs", APIs, func(apis []string) []string {
		return SettingsOf(Params{ClientTopology: SplitClient}).Images(apis)
	})
}

// singleRun are `logbench run`'s parameters: one logging mode, one reader and one API
// (the Go one unless told), and the flags of every run (BindRun).
type singleRun struct{ *Params }

// SingleRunParams are run's parameters at their defaults: json-sync with the slow
// reader on the Go API.
func (plugin) SingleRunParams() experiment.Params {
	p := DefaultParams(GoAPI)
	p.Modes, p.Readers = []string{string(contract.ModeJSONSync)}, []string{SlowReader}
	return singleRun{p}
}

// Bind declares run's flags: --mode and --reader bound to the parameters' modes and
// readers, each of one, and the flags of every run.
func (s singleRun) Bind(fs *flag.FlagSet) {
	s.flags().Bind(fs)
	s.BindRun(fs, APIUsage)
}

// Check refuses a run of anything but one condition, then what no run can have.
func (s singleRun) Check() error { return cmp.Or(s.flags().Check(), s.Params.Check()) }

// flags are run's own: one logging mode, one reader, one API.
func (s singleRun) flags() experiment.Flags {
	return experiment.Flags{
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.List(&s.Modes), "mode", "logging mode: "+strings.Join(contract.LogModeNames(), ", "))
		}, Check: func() error {
			return experiment.OnlyOne("mode", s.Modes, "one logging mode", func(m string) error {
				_, err := contract.ParsePublishedLogMode(m)
				return err
			})
		}},
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.List(&s.Readers), "reader", "reader: fast or slow (256 KiB/s at most)")
		}, Check: func() error {
			return experiment.OnlyOne("reader", s.Readers, "one reader", func(r string) error {
				_, err := ReaderRate(r)
				return err
			})
		}},
		experiment.Rule(func() error {
			return experiment.OnlyOne("api", s.APIs, "one API (go or python); reproduce runs all", nil)
		}),
	}
}

// PlanSingleRun checks run's flags into a plan of the one condition they name.
func (plugin) PlanSingleRun(ps experiment.Params) (experiment.Plan, error) {
	s, err := experiment.Own[singleRun](ps)
	if err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	p, err := Tabular.Plan(s.Params, 1)
	if err != nil {
		return nil, err
	}
	return singlePlan{p}, nil
}

// singlePlan is run's plan of one condition, which says more of its run than the
// matrix's progress line.
type singlePlan struct{ experiment.Plan }

// RunHeader names the plan's first condition and the load each run offers.
func (p singlePlan) RunHeader() string {
	pr := SettingsOf(*p.bundle().Params()).Protocol
	return fmt.Sprintf("run %s: %d requests at %g req/s after %d warm-up", p.Conditions()[0], pr.Count(), pr.Rate, pr.WarmupCount)
}

func (p singlePlan) bundle() *TabularBundle {
	b, _ := p.Bundle().(*TabularBundle)
	return b
}

// ReportRun writes the last run's requests, latencies, log bytes and their proof, drain
// and CPU.
func (p singlePlan) ReportRun(w io.Writer) string {
	runs := p.bundle().Runs
	if len(runs) == 0 {
		return "no run"
	}
	r := runs[len(runs)-1]
	match := "match"
	switch {
	case r.SHA256Writer == "" || r.SHA256Reader == "":
		match = "not available: the counters were not collected"
	case r.SHA256Writer != r.SHA256Reader || r.BytesWritten != r.BytesRead || r.LinesWritten != r.LinesRead:
		match = "MISMATCH"
	}
	say := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	say("requests      %d (%d errors)", r.Requests, r.Errors)
	say("latency       p50 %s  p99 %s  max %s (from the scheduled send)", Ms(float64(r.P50Ms)), Ms(float64(r.P99Ms)), Ms(float64(r.MaxMs)))
	say("log bytes     written %d, read %d; lines %d / %d", r.BytesWritten, r.BytesRead, r.LinesWritten, r.LinesRead)
	say("sha-256       %s (%.16s…)", match, r.SHA256Writer)
	say("drain         %.3f s after the last response; max backlog %s (%d bytes)", r.DrainS, units.BytesSize(float64(r.BacklogMaxBytes)), r.BacklogMaxBytes)
	say("api cpu       %.4f cores (mean, after warm-up to the last response)", r.APICPUCores)
	if r.Verified {
		say("verified      yes")
		return ""
	}
	say("verified      NO: %s", r.Failure)
	return r.Failure
}
