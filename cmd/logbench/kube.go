package main

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/host/kube"
	"github.com/logbench/logbench/kit/host/lab"
)

// kubeFlags choose the Kubernetes nodes and namespace of --engine k8s:CONTEXT.
func kubeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "nodes", Usage: "with --engine k8s:CONTEXT: the nodes to run on, comma-separated, each its own sequence and bundle (default: every Ready, schedulable node)"},
		&cli.StringFlag{Name: "namespace", Value: kube.DefaultNamespace, Usage: "with --engine k8s:CONTEXT: the namespace the Pods run in"},
	}
}

// kubeImport is how the images get into a node's runtime on a cluster of
// scripts/kube-up, for the refusal of a node that lacks them.
const kubeImport = "scripts/kube-images"

// kubeEngine is a node of a cluster as the lab runs plans on it, with the Docker
// Engine that builds the images beside it: closing it closes both.
type kubeEngine struct {
	*kube.Cluster
	docker *engine.Engine
}

func (k kubeEngine) Close() error { return errors.Join(k.Cluster.Close(), k.docker.Close()) }

// kubeEngines are the nodes an --engine k8s:CONTEXT runs on: one engine each, named
// k8s:CONTEXT/NODE.
func kubeEngines(c *cli.Context, name string) (*kube.Client, []string, error) {
	client, err := kube.Dial(c.Context, kube.Options{Context: strings.TrimPrefix(name, kube.Prefix), Namespace: c.String("namespace")})
	if err != nil {
		if c.Context.Err() != nil {
			return nil, nil, interruptedError{Msg: "interrupted while reaching the cluster"}
		}
		return nil, nil, usageError{Msg: err.Error()}
	}
	var names []string
	if s := c.String("nodes"); s != "" {
		names = strings.Split(s, ",")
	}
	nodes, err := client.Nodes(c.Context, names)
	if err != nil {
		return nil, nil, usageError{Msg: err.Error()}
	}
	return client, nodes, nil
}

// reachKube is connectTo for one node of a cluster: the images are built on the Docker
// Engine the flags choose (the local one by default) and must be on the node already.
func reachKube(c *cli.Context, client *kube.Client, node string, out io.Writer) (*target, error) {
	baseOpts, err := baseOptions(c)
	if err != nil {
		return nil, err
	}
	src, err := findSource(c)
	if err != nil {
		return nil, err
	}
	docker, err := connectEngine(c)
	if err != nil {
		return nil, err
	}
	cluster := client.On(node)
	facts, err := cluster.Facts(c.Context)
	if err == nil {
		var platform string
		if platform, err = platformFlag(c, facts.Platform); err == nil {
			builder := &images.Builder{Engine: docker, SourceDir: src.dir, Env: os.Environ(), Progress: prefixed(out, "build: ")}
			imgs := kube.Images{Builder: images.ForPlans{Builder: builder, Bases: baseOpts}, Cluster: cluster, Import: kubeImport}
			return &target{
				Target: &lab.Target{Engine: kubeEngine{Cluster: cluster, docker: docker}, Facts: facts, Context: client.Context(), Endpoint: client.Server() + " node " + node,
					Platform: platform, Images: imgs, Out: out},
				engine: docker, source: src, bases: baseOpts,
			}, nil
		}
	}
	docker.Close()
	return nil, err
}
