package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/kube"
)

func cleanCommand() *cli.Command {
	return &cli.Command{
		Name: "clean",
		Usage: "remove the stopped containers and unused volumes that earlier, crashed invocations of the kit left on the engine: those carrying " +
			engine.Label + " and the kit's mark made with this host's key (" + engine.MarkLabel + "); anything else is left and named",
		Flags: []cli.Flag{contextFlag(),
			&cli.BoolFlag{Name: "force", Usage: "also stop and remove the kit's own running containers (never anything without the kit's mark)"},
			&cli.StringFlag{Name: "engine", Usage: "k8s:CONTEXT: remove the kit's Pods (label " + kube.ManagedBy + "=logbench) from --namespace of that kubeconfig context instead"},
			&cli.StringFlag{Name: "namespace", Value: kube.DefaultNamespace, Usage: "with --engine k8s:CONTEXT: the namespace"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("clean takes no arguments, got %q", c.Args().First())
			}
			if name := c.String("engine"); name != "" {
				return cleanKube(c, name)
			}
			eng, err := connectEngine(c)
			if err != nil {
				return err
			}
			defer eng.Close()
			sweep, err := eng.Clean(c.Context, c.Bool("force"))
			out := c.App.Writer
			for _, s := range sweep.Removed {
				say(out, "removed %s", swept(s))
			}
			for _, s := range sweep.Left {
				say(out, "left %s: %s", swept(s), s.Why)
			}
			if err == nil && !sweep.Found() {
				say(out, "nothing to remove: no container or volume carries the label %s", engine.Label)
			}
			return err
		},
	}
}

// swept names a container by its short ID and name, a volume by its name.
func swept(s engine.Swept) string {
	if s.Kind == engine.KindContainer {
		short := s.ID
		if len(short) > 12 {
			short = short[:12]
		}
		return "container " + short + " (" + s.Name + ")"
	}
	return "volume " + s.Name
}

// cleanKube removes the kit's Pods from a cluster's namespace.
func cleanKube(c *cli.Context, name string) error {
	if !strings.HasPrefix(name, kube.Prefix) {
		return usagef("--engine %s: clean takes k8s:CONTEXT; a Docker Engine is chosen with --context", name)
	}
	client, err := kube.Dial(c.Context, kube.Options{Context: strings.TrimPrefix(name, kube.Prefix), Namespace: c.String("namespace")})
	if err != nil {
		return usageError{Msg: err.Error()}
	}
	removed, left, err := client.Clean(c.Context, c.Bool("force"))
	out := c.App.Writer
	for _, p := range removed {
		say(out, "removed Pod %s", p)
	}
	for _, p := range left {
		say(out, "left Pod %s", p)
	}
	if err == nil && len(removed)+len(left) == 0 {
		say(out, "nothing to remove: no Pod in namespace %s carries the label %s=logbench", c.String("namespace"), kube.ManagedBy)
	}
	return err
}
