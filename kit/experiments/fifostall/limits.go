package fifostall

import (
	"fmt"
	"math"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
)

// LimitsFailure compares the limits the containers read from inside with the ones the
// kit set: the process limits (nofile, nproc, the pids controller's) of every container
// that reported them, and the API container's CPU and memory limits. An engine that
// accepts a limit and does not apply it (rootless Podman on cgroup v1 ignores every
// resource limit, with a warning in its service's log only) would otherwise give
// figures of another experiment. "" when every limit read is the one set.
func LimitsFailure(res contract.Result, p schema.Params) string {
	var problems []string
	for _, c := range []struct {
		role string
		p    contract.ProcessFacts
	}{{"api", res.API.Process}, {"reader", res.Reader.Process}, {"loadgen", res.Loadgen}} {
		l := c.p.Limits
		if !c.p.Present || l == nil {
			continue
		}
		if l.NoFileSoft != 0 && (l.NoFileSoft != contract.DefaultNoFile || l.NoFileHard != contract.DefaultNoFile) {
			problems = append(problems, fmt.Sprintf("%s container's nofile limit is %d/%d, the kit set %d", c.role, l.NoFileSoft, l.NoFileHard, contract.DefaultNoFile))
		}
		if l.NProcSoft != 0 && (l.NProcSoft != contract.DefaultNProc || l.NProcHard != contract.DefaultNProc) {
			problems = append(problems, fmt.Sprintf("%s container's nproc limit is %d/%d, the kit set %d", c.role, l.NProcSoft, l.NProcHard, contract.DefaultNProc))
		}
		if l.PidsMax != 0 && p.Limits.PidsLimit > 0 && l.PidsMax != p.Limits.PidsLimit {
			problems = append(problems, fmt.Sprintf("%s container's pids.max is %d, the kit set %d", c.role, l.PidsMax, p.Limits.PidsLimit))
		}
	}
	if api := res.APIAtLastResponse; api.UnixNano != 0 {
		if p.Limits.APICPUs > 0 && math.Abs(api.CPULimitCores-p.Limits.APICPUs) > 0.001 {
			problems = append(problems, fmt.Sprintf("api container's CPU limit is %g cores, the kit set %g", api.CPULimitCores, p.Limits.APICPUs))
		}
		if p.Limits.APIMemoryBytes > 0 && api.MemoryLimitBytes != p.Limits.APIMemoryBytes {
			problems = append(problems, fmt.Sprintf("api container's memory limit is %d bytes, the kit set %d", api.MemoryLimitBytes, p.Limits.APIMemoryBytes))
		}
	}
	if len(problems) == 0 {
		return ""
	}
	return "the engine did not apply the limits it was given: " + strings.Join(problems, "; ")
}
