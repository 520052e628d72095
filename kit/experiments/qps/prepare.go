package qps

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiment"
)

var _ experiment.Preparer = (*Plan)(nil)

// Prepare tries a logging driver or options other than the engine's json-file defaults
// on one short pod before the matrix: the engine checks a driver's options only when a
// container is created, and a refusal is bad input, said in one line before any run.
func (p *Plan) Prepare(ctx context.Context, pods experiment.Pods, images map[string]string, _ time.Duration, out io.Writer) error {
	pr := p.bundle.M.Parameters
	if pr.LogDriver == "json-file" && len(pr.LogOpts) == 0 {
		return nil
	}
	fmt.Fprintf(out, "trying --log-driver %s %s on the engine\n", pr.LogDriver, fmtOpts(pr.LogOpts))
	probe := *p
	probe.bundle = &Bundle{M: p.bundle.M}
	probe.bundle.M.Parameters.DurationS, probe.bundle.M.Parameters.WarmupS, probe.bundle.M.Parameters.EngineCPU = 0.5, 0, false
	spec := probe.Pod(experiment.Condition{pr.APIs[0], Console}, "probe-"+time.Now().UTC().Format("150405"), images)
	_, err := pods.RunPod(ctx, spec, io.Discard)
	if err != nil && ctx.Err() == nil && strings.Contains(err.Error(), "creating api container") {
		return usagef("--log-driver %s --log-opt %s: the engine refuses it: %v", pr.LogDriver, fmtOpts(pr.LogOpts), err)
	}
	return err
}
