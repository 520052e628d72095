package experiment_test

import (
	"slices"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// The engine helper serves the engine's kind on the pod's loopback at its port, from
// the host's PID namespace, and its URL is that port's /sample.
func TestEngineHelper(t *testing.T) {
	c, url := experiment.EngineHelper("engine", "qpsload", contract.EnginePodman, 9003, map[string]string{"qpsload": "sha256:1"})
	if url != "http://127.0.0.1:9003/sample" {
		t.Errorf("url %q", url)
	}
	if c.Role != "engine" || c.Image != "sha256:1" || !c.HostPIDs || c.NanoCPUs != 100_000_000 || c.MemoryBytes != 64<<20 {
		t.Errorf("container %+v", c)
	}
	if !slices.Contains(c.Cmd, "-engine-cpu-server=127.0.0.1:9003") || !slices.Contains(c.Cmd, "-engine-kind="+contract.EnginePodman) {
		t.Errorf("command %q", c.Cmd)
	}
}
