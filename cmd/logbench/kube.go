package main

import (
	"errors"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
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
		&cli.StringFlag{Name: "registry", Usage: "with --engine k8s:CONTEXT: HOST[:PORT]/PATH, a registry to push the images to, which the nodes pull by digest (default: none; each node must hold the images, see " + kubeImport + ")"},
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
	o, err := planOptions(c)
	if err != nil {
		return nil, err
	}
	var registry *kube.Registry
	if s := c.String("registry"); s != "" {
		if registry, err = kube.ParseRegistry(s); err != nil {
			return nil, usageError{Msg: err.Error()}
		}
	}
	docker, err := connectEngine(c)
	if err != nil {
		return nil, err
	}
	if registry != nil {
		registry.Saver = docker
	}
	cluster := client.On(node)
	return o.target(c, docker, out, cluster.Facts, func(facts contract.EngineFacts, platform string, imgs images.ForPlans) *lab.Target {
		return &lab.Target{Engine: kubeEngine{Cluster: cluster, docker: docker}, Facts: facts, Context: client.Context(), Endpoint: client.Server() + " node " + node,
			Platform: platform, Images: kube.Images{Builder: imgs, Cluster: cluster, Import: kubeImport, Registry: registry}, Out: out}
	})
}

// reachResumedNode reaches the node a cluster bundle's runs ran on, for --resume: the
// context, namespace and node its manifest records, refused in one line when the context
// now reaches another API server or the node is gone or not Ready.
func reachResumedNode(c *cli.Context, k contract.KubeFacts) (*target, error) {
	client, err := kube.Dial(c.Context, kube.Options{Context: k.Context, Namespace: k.Namespace})
	if err != nil {
		if c.Context.Err() != nil {
			return nil, interruptedError{Msg: "interrupted while reaching the cluster"}
		}
		return nil, usagef("--resume: the bundle's cluster (context %s): %v", k.Context, err)
	}
	if client.Server() != k.Server {
		return nil, usagef("--resume: context %s now reaches %s; the bundle's runs ran on %s", k.Context, client.Server(), k.Server)
	}
	if _, err := client.Nodes(c.Context, []string{k.Node}); err != nil {
		return nil, usagef("--resume: the bundle's node: %v", err)
	}
	return reachKube(c, client, k.Node, c.App.Writer)
}
