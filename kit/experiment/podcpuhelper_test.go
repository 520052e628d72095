package experiment_test

import (
	"slices"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// The pod's CPU helper is the engine helper that samples the pod's service too.
func TestPodCPUHelperSamplesThePodToo(t *testing.T) {
	images := map[string]string{"qpsload": "sha256:1"}
	c, url := experiment.PodCPUHelper("enginecpu", "qpsload", contract.EngineDocker, 9003, images)
	engine, engineURL := experiment.EngineHelper("enginecpu", "qpsload", contract.EngineDocker, 9003, images)
	if url != engineURL || c.Role != engine.Role || c.Image != engine.Image || !c.HostPIDs || c.NanoCPUs != engine.NanoCPUs || c.MemoryBytes != engine.MemoryBytes {
		t.Errorf("container %+v, url %q; the engine helper's %+v, %q", c, url, engine, engineURL)
	}
	if !slices.Contains(c.Cmd, "-pod-cpu=true") || !slices.Contains(c.Cmd, "-engine-cpu-server=127.0.0.1:9003") || !slices.Contains(c.Cmd, "-engine-kind="+contract.EngineDocker) {
		t.Errorf("command %q", c.Cmd)
	}
}
