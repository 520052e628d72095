// Package experiments lists the kit's experiments: one package each, every one an
// experiment.Experiment.
package experiments

import (
	"fmt"
	"strings"

	"github.com/logbench/logbench/internal/didyoumean"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/experiments/linecost"
	"github.com/logbench/logbench/kit/experiments/logdriver"
	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/experiments/yourapi"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// All are the experiments, the first the default of reproduce.
var All = []experiment.Experiment{fifostall.Experiment, qps.Experiment, linecost.Experiment, yourapi.Experiment, logdriver.Experiment}

// Default is reproduce's experiment when none is named.
var Default = All[0]

// Unnamed is the experiment of a bundle whose manifest names none: it was written
// before the kit had several experiments.
var Unnamed experiment.Experiment = fifostall.Experiment

// Lookup finds an experiment by name; "" is Unnamed.
func Lookup(name string) (experiment.Experiment, error) {
	if name == "" {
		return Unnamed, nil
	}
	for _, e := range All {
		if e.Info().Name == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("unknown experiment %q%s (known: %s)", name, didyoumean.Suffix(name, Names()), strings.Join(Names(), ", "))
}

// Names are the experiments' names, in the order of All.
func Names() []string {
	names := make([]string, len(All))
	for i, e := range All {
		names[i] = e.Info().Name
	}
	return names
}

// Of names the experiment that wrote a bundle's files. A bundle whose manifest cannot
// be read is given to the default experiment, whose verification names the problem.
func Of(files *bundle.Files) (experiment.Experiment, error) {
	body, ok := files.Data[bundle.ManifestFile]
	if !ok {
		return Default, nil
	}
	name, err := bundle.ExperimentOf(body)
	if err != nil {
		return Default, nil
	}
	return Lookup(name)
}
