// Package linecost is the kit's third experiment: what one log line costs, seven ways
// (format only, a disabled DEBUG line with eager and with lazy arguments, buffered,
// unbuffered, fsync per line, a queue with a writer thread), in the logging libraries
// people choose between in each language (--libraries; Go: log/slog, zap, zerolog,
// logrus; Python: logging, structlog, loguru; Node.js: util.format, winston), each
// writing its own line, time stamp included (--line), measured inside that language's
// API image under the API's limits. Each run
// is one container measuring one way; its trials are timed by the calling thread's CPU
// clock and the monotonic clock, with the cgroup's CPU and throttling read around each,
// and every line written is verified against the kit's own regeneration of it.
package linecost

import (
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/results/reference"
)

// Name is the experiment's name.
const Name = "line-cost"

// Source names where the published figures come from.
var Source = reference.MustSetup(Name).Source

// Experiment is the line-cost experiment as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

func (Experiment) Name() string { return Name }

func (Experiment) Summary() string {
	return "what one log line costs, 7 ways (format, disabled eager/lazy, buffered, unbuffered, fsync, queue) x Go/Python/Node.js x their libraries, CPU and wall time per line, every line verified"
}

func (Experiment) Source() string { return Source }

// Params are line-cost's parameters at their defaults.
func (Experiment) Params() experiment.Params { return DefaultParams() }

// Plan checks reproduce's flags into the matrix language x library x way.
func (Experiment) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	p, err := experiment.Own[*Params](ps)
	if err != nil {
		return nil, err
	}
	settled, err := p.settled(rounds)
	if err != nil {
		return nil, err
	}
	return NewPlan(settled), nil
}

// Resume reads the plan back from the bundle in dir, which must verify.
func (Experiment) Resume(dir string) (experiment.Plan, error) {
	b, err := experiment.ReadResumed(dir, check, (*Bundle).Common)
	if err != nil {
		return nil, err
	}
	// What this kit adds to an earlier kit's bundle it writes as it writes its own: every
	// figure over runs.
	b.Manifest.Parameters.Resamples = 0
	return &Plan{Params: b.Manifest.Parameters, bundle: b}, nil
}

var _ experiment.Imager = Experiment{}

// ImagesFor names the images of a language's runs ("" or "all": every language's): the
// API image of the language holds its measuring program.
func (Experiment) ImagesFor(language string) ([]string, error) {
	languages := Languages
	switch {
	case language == "" || language == "all":
	case slices.Contains(Languages, language):
		languages = []string{language}
	default:
		return nil, usagef("--api %q: line-cost measures the languages %s, or all", language, strings.Join(Languages, ", "))
	}
	return NewPlan(Params{Languages: languages}).Images(), nil
}
