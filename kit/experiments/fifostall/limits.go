package fifostall

import (
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
)

// LimitsFailure compares the limits the containers read from inside with the ones the
// kit set (experiment.NotApplied): the process limits of every container that reported
// them, and the API container's CPU and memory limits. "" when every limit read is the
// one set.
func LimitsFailure(res contract.Result, p schema.Params) string {
	pids := p.Limits.PidsLimit
	return experiment.NotApplied(experiment.RlimitsNotApplied("api", res.API.Process, pids), experiment.RlimitsNotApplied("reader", res.Reader.Process, pids),
		experiment.RlimitsNotApplied("loadgen", res.Loadgen, pids), experiment.CgroupNotApplied("api", res.APIAtLastResponse, p.Limits.APICPUs, p.Limits.APIMemoryBytes))
}
