package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/logbench/logbench/kit/contract"
)

// Whether the engine applied the limits the kit set, as a container read them from
// inside. An engine that accepts a limit and does not apply it (rootless Podman on
// cgroup v1 ignores every resource limit, with a warning in its service's log only)
// would otherwise give figures of another experiment.

// RlimitsNotApplied are the process limits a container of role read (its nofile,
// nproc and its pids controller's) that differ from those the kit set: nofile and
// nproc the kit's defaults, pids pidsLimit (0: none set). None where it read none.
func RlimitsNotApplied(role string, p contract.ProcessFacts, pidsLimit int64) []string {
	l := p.Limits
	if !p.Present || l == nil {
		return nil
	}
	var out []string
	if l.NoFileSoft != 0 && (l.NoFileSoft != contract.DefaultNoFile || l.NoFileHard != contract.DefaultNoFile) {
		out = append(out, fmt.Sprintf("%s container's nofile limit is %d/%d, the kit set %d", role, l.NoFileSoft, l.NoFileHard, contract.DefaultNoFile))
	}
	if l.NProcSoft != 0 && (l.NProcSoft != contract.DefaultNProc || l.NProcHard != contract.DefaultNProc) {
		out = append(out, fmt.Sprintf("%s container's nproc limit is %d/%d, the kit set %d", role, l.NProcSoft, l.NProcHard, contract.DefaultNProc))
	}
	if l.PidsMax != 0 && pidsLimit > 0 && l.PidsMax != pidsLimit {
		out = append(out, fmt.Sprintf("%s container's pids.max is %d, the kit set %d", role, l.PidsMax, pidsLimit))
	}
	return out
}

// CgroupNotApplied are the CPU and memory limits a container of role read from its
// cgroup (s) that differ from those the kit set (0: none set); none where it took no
// reading.
func CgroupNotApplied(role string, s contract.CgroupSnapshot, cpus float64, memory int64) []string {
	if s.UnixNano == 0 {
		return nil
	}
	var out []string
	if cpus > 0 && math.Abs(s.CPULimitCores-cpus) > 0.001 {
		out = append(out, fmt.Sprintf("%s container's CPU limit is %g cores, the kit set %g", role, s.CPULimitCores, cpus))
	}
	if memory > 0 && s.MemoryLimitBytes != memory {
		out = append(out, fmt.Sprintf("%s container's memory limit is %d bytes, the kit set %d", role, s.MemoryLimitBytes, memory))
	}
	return out
}

// NotApplied is a run's failure for the limits not applied (RlimitsNotApplied,
// CgroupNotApplied), "" when every limit read is the one set.
func NotApplied(problems ...[]string) string {
	var all []string
	for _, p := range problems {
		all = append(all, p...)
	}
	if len(all) == 0 {
		return ""
	}
	return "the engine did not apply the limits it was given: " + strings.Join(all, "; ")
}

// ResultNotApplied is the failure of a run whose containers report their limits in a
// contract.Result (the API's, the reader's and the load generator's programs) for the
// limits not applied: the process limits of each that read them (pidsLimit the one set),
// and the API container's CPU and memory (apiCPUs, apiMemory). "" when every limit read
// is the one set.
func ResultNotApplied(res contract.Result, pidsLimit int64, apiCPUs float64, apiMemory int64) string {
	return NotApplied(RlimitsNotApplied("api", res.API.Process, pidsLimit), RlimitsNotApplied("reader", res.Reader.Process, pidsLimit),
		RlimitsNotApplied("loadgen", res.Loadgen, pidsLimit), CgroupNotApplied("api", res.APIAtLastResponse, apiCPUs, apiMemory))
}
