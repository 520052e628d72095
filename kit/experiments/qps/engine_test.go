package qps

import (
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

func TestTheLogDriverDefaultsToTheEngines(t *testing.T) {
	podman := contract.EngineFacts{Kind: "podman", LogDrivers: []string{"k8s-file", "none", "passthrough", "journald"}}
	docker := contract.EngineFacts{Kind: "docker", DefaultLogDriver: "json-file", LogDrivers: []string{"json-file", "local"}}
	journald := contract.EngineFacts{Kind: "docker", DefaultLogDriver: "journald", LogDrivers: []string{"json-file", "journald"}}
	for _, c := range []struct {
		e    contract.EngineFacts
		want string
	}{{podman, "k8s-file"}, {docker, "json-file"}, {journald, "journald"}, {contract.EngineFacts{}, "json-file"}} {
		p, err := parse(t)
		if err != nil {
			t.Fatal(err)
		}
		plan := NewPlan(p)
		if err := plan.Target(experiment.Env{Engine: c.e}); err != nil {
			t.Fatalf("%+v: %v", c.e, err)
		}
		pr := plan.QPS().M.Parameters
		if pr.LogDriver != c.want || pr.LogDriverChosenBy == "" {
			t.Errorf("%+v: driver %q (%s), want %q", c.e, pr.LogDriver, pr.LogDriverChosenBy, c.want)
		}
	}
	p, err := parse(t, "--log-driver", "journald")
	if err != nil {
		t.Fatal(err)
	}
	plan := NewPlan(p)
	if err := plan.Target(experiment.Env{Engine: podman}); err != nil || plan.QPS().M.Parameters.LogDriver != "journald" || plan.QPS().M.Parameters.LogDriverChosenBy != "--log-driver" {
		t.Errorf("--log-driver journald on Podman: %+v, %v", plan.QPS().M.Parameters, err)
	}
}

func TestTheEngineCPUHelperCountsTheEngineInUseOrNothing(t *testing.T) {
	images := map[string]string{"api-node": "sha256:api", "qpsload": "sha256:load", "wrk": "sha256:wrk"}
	for _, kind := range []string{"docker", "podman"} {
		p, _ := parse(t)
		plan := NewPlan(p)
		if err := plan.Target(experiment.Env{Engine: contract.EngineFacts{Kind: kind}}); err != nil {
			t.Fatal(err)
		}
		spec := plan.Pod(Cond{NodeAPI, Console}, "r1", images)
		i := slices.IndexFunc(spec.Containers, func(c experiment.ContainerSpec) bool { return c.Role == "enginecpu" })
		if i < 0 || loadArgs(t, spec.Containers[i].Cmd).EngineKind != kind {
			t.Errorf("%s: helper %+v", kind, spec.Containers)
		}
	}
	p, _ := parse(t)
	plan := NewPlan(p)
	if err := plan.Target(experiment.Env{Engine: contract.EngineFacts{KindEvidence: "neither a component nor the platform names Docker or Podman"}}); err != nil {
		t.Fatal(err)
	}
	m := plan.QPS().M
	if m.Parameters.EngineCPU || len(m.Unmeasured) == 0 || !strings.Contains(strings.Join(m.Unmeasured, " "), "cannot identify") {
		t.Errorf("unknown engine: engine_cpu %v, unmeasured %q", m.Parameters.EngineCPU, m.Unmeasured)
	}
	for _, c := range plan.Pod(Cond{NodeAPI, Console}, "r1", images).Containers {
		if c.Role == "enginecpu" {
			t.Error("a helper for an engine whose processes the kit cannot identify")
		}
	}
}
