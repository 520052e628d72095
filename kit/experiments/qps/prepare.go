package qps

import (
	"context"
	"errors"
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
	fmt.Fprintf(out, "trying --log-driver %s on the engine\n", strings.TrimSpace(pr.LogDriver+" "+experiment.FormatLogOpts(pr.LogOpts)))
	probe := *p
	probe.bundle = &Bundle{M: p.bundle.M}
	probe.bundle.M.Parameters.DurationS, probe.bundle.M.Parameters.WarmupS, probe.bundle.M.Parameters.EngineCPU = 0.5, 0, false
	spec := probe.Pod(Cond{pr.APIs[0], Console}, "probe-"+time.Now().UTC().Format("150405"), images)
	_, err := pods.RunPod(ctx, spec, io.Discard)
	var refused experiment.CreateError
	if errors.As(err, &refused) && ctx.Err() == nil && refused.Role == "api" {
		what := "--log-driver " + pr.LogDriver
		if len(pr.LogOpts) > 0 {
			what += " --log-opt " + experiment.FormatLogOpts(pr.LogOpts)
		}
		return usagef("%s: the engine refuses it: %v", what, err)
	}
	return err
}
