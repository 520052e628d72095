// Package fifostall is the kit's first experiment: an API that writes its log lines to
// a FIFO, read by a fast or a throttled reader, under open-loop load; seven logging
// modes; the p99 from the scheduled send, the drain, both throughputs, and SHA-256 proof
// that no log byte was lost.
package fifostall

import (
	"flag"
	"strings"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/results/reference"
)

// Name is the experiment's name.
const Name = schema.Name

// Experiment is the FIFO-stall experiment as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

func (Experiment) Name() string { return Name }

func (Experiment) Summary() string {
	return "a slow log reader stalls an API: 7 logging modes x fast/throttled FIFO reader, open-loop load, p99, drain, no byte lost"
}

func (Experiment) Source() string { return reference.Source }

// DeclareFlags declares the matrix's axes, the retries and the calibration, and the
// flags every run of this experiment has (DeclareRunFlags).
func (Experiment) DeclareFlags(fs *flag.FlagSet) {
	fs.String("modes", strings.Join(contract.LogModeNames(), ","), "logging modes, comma-separated")
	fs.String("readers", strings.Join(Readers, ","), "readers, comma-separated")
	fs.Bool("calibrate", true, "measure the instrument first and record it in the manifest (--calibrate=false to skip)")
	fs.Int("retries", 2, "perform a run again, up to this many times, while its send-lag p99 is over --max-send-lag (every attempt is kept in the bundle)")
	DeclareRunFlags(fs, PythonAPI)
}

// Plan validates reproduce's flags into the matrix API x mode x reader.
func (Experiment) Plan(c *experiment.Flags, rounds int) (experiment.Plan, error) {
	var modes []string
	for _, name := range splitList(c.String("modes")) {
		m, err := contract.ParseLogMode(name)
		if err != nil {
			return nil, usagef("--modes: %v", err)
		}
		modes = append(modes, string(m))
	}
	readers := splitList(c.String("readers"))
	for _, r := range readers {
		if _, err := ReaderRate(r); err != nil {
			return nil, usagef("--readers: %v", err)
		}
	}
	if len(modes) == 0 || len(readers) == 0 {
		return nil, usagef("--modes and --readers need at least one each")
	}
	params, err := ParamsFrom(c)
	if err != nil {
		return nil, err
	}
	if params.Retries = c.Int("retries"); params.Retries < 0 || params.Retries > 10 {
		return nil, usagef("--retries %d: want 0 to 10", params.Retries)
	}
	p := NewPlan(Cross(params.APIs, modes, readers), rounds, params)
	p.Calibrate = c.Bool("calibrate")
	return p, nil
}

// Resume reads the plan back from the bundle in dir, which has been verified.
func (Experiment) Resume(dir string) (experiment.Plan, error) {
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		return nil, usagef("--resume %s: %v", dir, err)
	}
	checked := schema.Verify(files)
	if !checked.OK() {
		return nil, usagef("--resume %s: the bundle does not verify (%d problems, the first: %s); see logbench verify %s",
			dir, len(checked.Problems), checked.Problems[0], dir)
	}
	b := schema.Of(checked)
	if b.Manifest.Command != "reproduce" {
		return nil, usagef("--resume %s: a bundle of %q, not of reproduce", dir, b.Manifest.Command)
	}
	mp := b.Manifest.Parameters
	return &Plan{conds: Cross(mp.APIs, mp.Modes, mp.Readers), rounds: mp.Rounds, Settings: SettingsOf(mp), bundle: &Bundle{B: b}}, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" && !contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, have := range list {
		if have == s {
			return true
		}
	}
	return false
}
