package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/kube"
	"github.com/logbench/logbench/kit/host/lab"
)

// reproduceOnEngines runs the same matrix on every engine named (lab.Several): a bundle
// per engine under one folder and the comparison of them beside. Every engine is
// resolved and reached, and every plan validated, before anything starts (an unknown
// context or an engine that does not answer is bad input).
func reproduceOnEngines(c *cli.Context, exp experiment.Experiment, names []string) error {
	var err error
	if c.String("resume") != "" {
		return usagef("--resume continues one bundle on the engine it was started on; it takes no --engine")
	}
	choice := engineChoice(c)
	// An --engine k8s:CONTEXT is one engine per node of the cluster, each named
	// k8s:CONTEXT/NODE, reached through the cluster's client.
	var expanded []string
	clients, nodes := map[string]*kube.Client{}, map[string]string{}
	for _, name := range names {
		if !strings.HasPrefix(name, kube.Prefix) {
			expanded = append(expanded, name)
			continue
		}
		client, on, err := kubeEngines(c, name)
		if err != nil {
			return fmt.Errorf("--engine %s: %w", name, err)
		}
		for _, node := range on {
			n := name + "/" + node
			expanded, clients[n], nodes[n] = append(expanded, n), client, node
		}
	}
	names = expanded
	labels := lab.Labels(names)
	endpoints := make([]engine.Endpoint, len(names))
	for i, name := range names {
		if clients[name] != nil {
			continue
		}
		if endpoints[i], err = choice.Named(name); err != nil {
			return usagef("--engine %s: %v", name, err)
		}
	}
	src, err := findSource(c)
	if err != nil {
		return err
	}
	root, err := outDir(c, src, "engines", time.Now())
	if err != nil {
		return err
	}
	// The nodes of a cluster are machines of their own: unless --parallel says
	// otherwise, they run at once, where engines that may share a host take turns.
	parallel := c.Bool("parallel")
	if !c.IsSet("parallel") && len(clients) == len(names) {
		parallel = true
	}
	out := lab.NewLines(c.App.Writer)
	several := &lab.Several{Experiment: exp, Root: root, Parallel: parallel, Out: out,
		Options: lab.Options{Command: "reproduce", SpeedProbe: c.Bool("speed-probe"), KitVersion: version, KitCommit: sourceCommit(c.Context, src.dir)}}
	defer func() {
		for _, e := range several.Engines {
			e.Target.Engine.Close()
		}
	}()
	for i, name := range names {
		_, p, err := reproducePlan(c, exp)
		var t *target
		switch {
		case err != nil:
		case clients[name] != nil:
			t, err = reachKube(c, clients[name], nodes[name], out.Prefixed("["+labels[i]+"] "))
		default:
			t, err = reach(c, endpoints[i], out.Prefixed("["+labels[i]+"] "))
		}
		if err == nil {
			several.Options.Precision = p.precision
			several.Engines = append(several.Engines, &lab.OnEngine{Name: name, Label: labels[i], Target: t.Target, Plan: p.exp})
			err = t.CheckPlatform(c.Bool("emulated"))
		}
		if err != nil {
			return fmt.Errorf("--engine %s: %w", name, err)
		}
	}
	return several.Reproduce(c.Context)
}

// emulatedAgainstNative says why sources may not be set side by side, for compare as
// for reproduce on several engines.
func emulatedAgainstNative(sources []experiment.Source) string {
	return experiment.EmulatedAgainstNative(sources)
}
