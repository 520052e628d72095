package engine

import (
	"context"
	"errors"
	"slices"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// Ulimits are the process limits every container of the pod gets, soft equal to hard:
// the spec's, or the kit's defaults. (The pids limit is the cgroup's, PidsLimit.)
func Ulimits(spec experiment.PodSpec) []*units.Ulimit {
	nofile, nproc := spec.NoFile, spec.NProc
	if nofile <= 0 {
		nofile = contract.DefaultNoFile
	}
	if nproc <= 0 {
		nproc = contract.DefaultNProc
	}
	return []*units.Ulimit{
		{Name: "nofile", Soft: nofile, Hard: nofile},
		{Name: "nproc", Soft: nproc, Hard: nproc},
	}
}

// podOrder is the order in which the pod's containers are removed: every container
// that joined the owner's network namespace (in reverse order of creation), then the
// owner, the first of spec.Containers. Containers never created are skipped.
func podOrder(spec experiment.PodSpec, ids map[string]string) []string {
	var out []string
	for _, c := range slices.Backward(spec.Containers) {
		if id := ids[c.Role]; id != "" {
			out = append(out, id)
		}
	}
	return out
}

// removePod removes the containers in order, forcibly (a running one is killed).
func (e *Engine) removePod(ctx context.Context, ordered []string) error {
	var errs []error
	for _, id := range ordered {
		if err := e.removeContainer(ctx, id, true); err != nil && !alreadyGone(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
