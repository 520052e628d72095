//go:build kube

package main

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/host/kube"
)

// A Pod whose conductor never ends is deleted once it has run for its StopAfter, as on
// Docker (TestAPodPastItsTimeIsStoppedAndSaysSo): the run's failure says so, and the
// kit's Pod is gone from the namespace. The conductor is the Go API, which serves until
// stopped.
func TestAPodPastItsTimeIsStoppedOnKubernetes(t *testing.T) {
	kubeconfig(t)
	eng := enginetest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client, err := kube.Dial(ctx, kube.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := client.Nodes(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	cluster := client.On(nodes[0])
	builder, platform := enginetest.Builder(t, eng, io.Discard)
	refs, _, err := kube.Images{Builder: images.ForPlans{Builder: builder}, Cluster: cluster}.Build(ctx, platform, []string{"api"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.EndlessPod(ctx, t, cluster, refs["api"], 5*time.Second)
	if removed, left, err := client.Clean(ctx, false); err != nil || len(removed)+len(left) > 0 {
		t.Errorf("Pods left in the namespace: removed %v, left %v, %v", removed, left, err)
	}
}
