package experiment

import (
	"fmt"

	"github.com/logbench/logbench/kit/contract"
)

// PodCPUHelper is EngineHelper for a service the kit did not write, which cannot
// report its own CPU: each sample also holds the CPU of the processes of the container
// that owns the pod's network (contract.QPSLoadArgs.PodCPU), measured from outside it.
func PodCPUHelper(role, image, kind string, port int, images map[string]string) (c ContainerSpec, url string) {
	c, url = EngineHelper(role, image, kind, port, images)
	serve := contract.DefaultQPSLoadArgs()
	serve.EngineCPUServer, serve.EngineKind, serve.PodCPU = fmt.Sprintf("127.0.0.1:%d", port), kind, true
	c.Cmd = serve.Args()
	return c, url
}
