// Command pause is the sandbox image's one process for the test cluster of
// scripts/kube-up: it holds a Pod's namespaces open until the kubelet stops it. The
// cluster pulls nothing, so the kit builds its own in place of registry.k8s.io/pause.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
}
