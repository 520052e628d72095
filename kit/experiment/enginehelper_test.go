package experiment_test

import (
	"slices"
	"strings"
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

// EngineKindOf keeps a kind whose processes the kit knows, drops one it does not, and
// refuses to resume a bundle on an engine of another kind.
func TestEngineKindOf(t *testing.T) {
	of := func(kind string) experiment.Env { return experiment.Env{Engine: contract.EngineFacts{Kind: kind}} }
	for _, tc := range []struct {
		engine, recorded, want, err string
	}{
		{contract.EngineDocker, "", contract.EngineDocker, ""},
		{"moby-fork", "", "", ""},
		{contract.EngineDocker, contract.EngineDocker, contract.EngineDocker, ""},
		{contract.EnginePodman, contract.EngineDocker, "", "--resume: the bundle's runs counted the processes of docker"},
		{"", contract.EngineDocker, "", "this engine is of a kind the kit does not know"},
	} {
		have, err := experiment.EngineKindOf(of(tc.engine), tc.recorded)
		if have != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("EngineKindOf(%q, %q) = %q, %v; want %q, %q", tc.engine, tc.recorded, have, err, tc.want, tc.err)
		}
	}
}
