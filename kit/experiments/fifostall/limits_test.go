package fifostall

import (
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
)

func TestLimitsNotAppliedFailTheRun(t *testing.T) {
	p := schema.Params{Limits: schema.Limits{APICPUs: 0.25, APIMemoryBytes: 128 << 20, PidsLimit: 128}}
	set := &contract.Rlimits{NoFileSoft: contract.DefaultNoFile, NoFileHard: contract.DefaultNoFile, NProcSoft: contract.DefaultNProc, NProcHard: contract.DefaultNProc, PidsMax: 128}
	applied := contract.Result{APIAtLastResponse: contract.CgroupSnapshot{UnixNano: 1, CPULimitCores: 0.25, MemoryLimitBytes: 128 << 20}}
	applied.API.Process = contract.ProcessFacts{Present: true, Limits: set}
	applied.Reader.Process = contract.ProcessFacts{Present: true, Limits: set}
	applied.Loadgen = contract.ProcessFacts{Present: true} // a program that did not read them: nothing to compare
	if f := LimitsFailure(applied, p); f != "" {
		t.Fatalf("applied limits failed the run: %s", f)
	}
	// Rootless Podman on cgroup v1: every limit ignored.
	ignored := applied
	ignored.APIAtLastResponse.CPULimitCores, ignored.APIAtLastResponse.MemoryLimitBytes = 0, 0
	ignored.API.Process = contract.ProcessFacts{Present: true, Limits: &contract.Rlimits{NoFileSoft: 20000, NoFileHard: 20000, NProcSoft: 32768, NProcHard: 32768}}
	f := LimitsFailure(ignored, p)
	for _, want := range []string{"nofile limit is 20000/20000", "nproc limit is 32768/32768", "CPU limit is 0 cores", "memory limit is 0 bytes"} {
		if !strings.Contains(f, want) {
			t.Errorf("failure %q does not say %q", f, want)
		}
	}
}
