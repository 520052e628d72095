package fifostall

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
)

var (
	_ experiment.Imager       = Experiment{}
	_ experiment.SingleRunner = Experiment{}
	_ experiment.RunReporter  = (*Plan)(nil)
)

// ImagesFor names the images of api's runs ("" or "all": both APIs'), with the reader
// and the load generator of either client topology.
func (Experiment) ImagesFor(api string) ([]string, error) {
	if api == "" {
		api = "all"
	}
	apis, err := ParseAPIs(api)
	if err != nil {
		return nil, usagef("--api: %v", err)
	}
	p := NewPlan(Cross(apis, []string{string(contract.ModeNone)}, Readers), 1, schema.Params{ClientTopology: SplitClient})
	return p.Images(), nil
}

// DeclareSingleRunFlags declares `logbench run`'s flags: one logging mode, one reader
// and one API (the Go one unless told), and the flags of every run (DeclareRunFlags).
func (Experiment) DeclareSingleRunFlags(fs *flag.FlagSet) {
	fs.String("mode", string(contract.ModeJSONSync), "logging mode: "+strings.Join(contract.LogModeNames(), ", "))
	fs.String("reader", SlowReader, "reader: fast or slow (256 KiB/s at most)")
	DeclareRunFlags(fs, GoAPI)
	fs.Lookup("api").Usage = "API implementation: go (net/http) or python (the article's asyncio API); reproduce runs several"
}

// PlanSingleRun validates run's flags into a plan of the one condition they name.
func (Experiment) PlanSingleRun(c *experiment.Flags) (experiment.Plan, error) {
	mode, err := contract.ParseLogMode(c.String("mode"))
	if err != nil {
		return nil, usagef("--mode: %v", err)
	}
	reader := c.String("reader")
	if _, err := ReaderRate(reader); err != nil {
		return nil, usagef("--reader: %v", err)
	}
	params, err := ParamsFrom(c)
	if err != nil {
		return nil, err
	}
	if len(params.APIs) != 1 {
		return nil, usagef("--api %s: one run has one API (go or python); reproduce runs all", c.String("api"))
	}
	return NewPlan([]Cond{{API: params.APIs[0], Mode: string(mode), Reader: reader}}, 1, params), nil
}

// RunHeader names the plan's first condition and the load each run offers.
func (p *Plan) RunHeader() string {
	pr := p.Settings.Protocol
	return fmt.Sprintf("run %s: %d requests at %g req/s after %d warm-up", p.conds[0], pr.Count(), pr.Rate, pr.WarmupCount)
}

// ReportRun writes the last run's requests, latencies, log bytes and their proof, drain
// and CPU.
func (p *Plan) ReportRun(w io.Writer) string {
	r := p.bundle.Last.Run
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
