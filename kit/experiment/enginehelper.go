package experiment

import (
	"cmp"
	"fmt"

	"github.com/logbench/logbench/kit/contract"
)

// EngineHelper is the container that samples the engine's own processes for a pod's
// conductor (contract.EngineProcessesOf kind: dockerd, containerd and the shims; conmon
// and Podman's service): the qps load image (its name in images is image) serving the
// samples on the pod's loopback at port, from the host's PID namespace, limited to what
// a walk of the host's /proc a second needs. url is the /sample the conductor asks
// (contract.LoadgenArgs.EngineCPUURL); the helper must start before the conductor.
func EngineHelper(role, image, kind string, port int, images map[string]string) (c ContainerSpec, url string) {
	serve := contract.DefaultQPSLoadArgs()
	serve.EngineCPUServer, serve.EngineKind = fmt.Sprintf("127.0.0.1:%d", port), kind
	return ContainerSpec{Role: role, Image: images[image], Cmd: serve.Args(), HostPIDs: true, NanoCPUs: NanoCPUs(0.1), MemoryBytes: 64 << 20},
		fmt.Sprintf("http://127.0.0.1:%d/sample", port)
}

// EngineKindOf is the kind of engine an engine helper counts the processes of: env's,
// or "" when the kit cannot identify that kind's processes (then no run measures them).
// recorded is what a bundle being resumed counted ("" for a fresh plan): an engine of
// another kind is refused, its runs would count other processes.
func EngineKindOf(env Env, recorded string) (string, error) {
	kind := env.Engine.Kind
	if contract.EngineProcessesOf(kind) == "" {
		kind = ""
	}
	if recorded != "" && recorded != kind {
		return "", Usagef("--resume: the bundle's runs counted the processes of %s (%s); this engine is %s", recorded,
			contract.EngineProcessesOf(recorded), cmp.Or(env.Engine.Kind, "of a kind the kit does not know"))
	}
	return kind, nil
}
