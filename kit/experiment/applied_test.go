package experiment_test

import (
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// TestLimitsNotAppliedFailTheRun: a run whose containers read the limits set passes;
// one whose engine ignored them (as rootless Podman on cgroup v1 does) fails, saying
// each limit. fifo-stall and log-driver, whose programs report them, hold every run so.
func TestLimitsNotAppliedFailTheRun(t *testing.T) {
	const pids, cpus, memory = 128, 0.25, 128 << 20
	set := &contract.Rlimits{NoFileSoft: contract.DefaultNoFile, NoFileHard: contract.DefaultNoFile, NProcSoft: contract.DefaultNProc, NProcHard: contract.DefaultNProc, PidsMax: 128}
	applied := contract.Result{APIAtLastResponse: contract.CgroupSnapshot{UnixNano: 1, CPULimitCores: 0.25, MemoryLimitBytes: 128 << 20}}
	applied.API.Process = contract.ProcessFacts{Present: true, Limits: set}
	applied.Reader.Process = contract.ProcessFacts{Present: true, Limits: set}
	applied.Loadgen = contract.ProcessFacts{Present: true} // a program that did not read them: nothing to compare
	if f := experiment.ResultNotApplied(applied, pids, cpus, memory); f != "" {
		t.Fatalf("applied limits failed the run: %s", f)
	}
	// Rootless Podman on cgroup v1: every limit ignored.
	ignored := applied
	ignored.APIAtLastResponse.CPULimitCores, ignored.APIAtLastResponse.MemoryLimitBytes = 0, 0
	ignored.API.Process = contract.ProcessFacts{Present: true, Limits: &contract.Rlimits{NoFileSoft: 20000, NoFileHard: 20000, NProcSoft: 32768, NProcHard: 32768}}
	f := experiment.ResultNotApplied(ignored, pids, cpus, memory)
	for _, want := range []string{"nofile limit is 20000/20000", "nproc limit is 32768/32768", "CPU limit is 0 cores", "memory limit is 0 bytes"} {
		if !strings.Contains(f, want) {
			t.Errorf("failure %q does not say %q", f, want)
		}
	}
}
