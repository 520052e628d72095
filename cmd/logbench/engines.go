package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/engine"
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
	labels := lab.Labels(names)
	endpoints := make([]engine.Endpoint, len(names))
	for i, name := range names {
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
	out := lab.NewLines(c.App.Writer)
	several := &lab.Several{Experiment: exp, Root: root, Parallel: c.Bool("parallel"), Out: out,
		Options: lab.Options{Command: "reproduce", SpeedProbe: c.Bool("speed-probe"), KitVersion: version, KitCommit: sourceCommit(c.Context, src.dir)}}
	defer func() {
		for _, e := range several.Engines {
			e.Target.Engine.Close()
		}
	}()
	for i, name := range names {
		_, p, err := reproducePlan(c, exp)
		var t *target
		if err == nil {
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
