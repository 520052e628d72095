package main

import (
	"flag"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
)

// TestEveryOwnFlagIsUnderItsHeading: reproduce's help lists every flag of the
// experiment under its own heading, whatever its kind (a repeatable one among them),
// and none of them under the matrix's.
func TestEveryOwnFlagIsUnderItsHeading(t *testing.T) {
	for _, e := range experiments.All {
		out, err := runApp(t, "reproduce", e.Info().Name, "--help")
		if err != nil {
			t.Fatalf("%s: %v", e.Info().Name, err)
		}
		_, own, found := strings.Cut(out, "EXPERIMENT'S OWN")
		own, matrix, found2 := strings.Cut(own, "MATRIX AND ENGINE")
		if !found || !found2 {
			t.Fatalf("%s: no headings in\n%s", e.Info().Name, out)
		}
		experiment.FlagSet(e.Info().Name, e.Params()).VisitAll(func(f *flag.Flag) {
			listed := regexp.MustCompile(`(?m)^\s+--` + regexp.QuoteMeta(f.Name) + `\b`)
			if !listed.MatchString(own) || listed.MatchString(matrix) {
				t.Errorf("%s --%s is not under EXPERIMENT'S OWN", e.Info().Name, f.Name)
			}
		})
	}
}

// TestTheCommandLineSetsWhatTheFlagSetDoes: every kind of flag.Value (switches, a
// negated one, repeatable values taken whole or split by the value itself, durations,
// sizes, lists, one-or-all) reaches the experiment's parameters through the command
// line as through the standard library's parser.
func TestTheCommandLineSetsWhatTheFlagSetDoes(t *testing.T) {
	for _, c := range []struct {
		exp  string
		args []string
	}{
		{"your-api", []string{"--image", "theirs:1", "--port", "8080", "--config", "a:X=1,Y=2", "--config", "b", "--config-cmd", "b:--quiet --fast",
			"--keep-user", "--writable-root", "--new-privileges=false", "--cap-add", "net_admin,chown", "--cap-add", "SYS_PTRACE", "--duration", "2m",
			"--api-memory", "1g", "--api-cpus", "0.5", "--log-opt", "mode=non-blocking", "--log-opt", "labels=a,b", "--load", "open", "--rate", "30"}},
		{"qps", []string{"--api", "all", "--configs", "none, file,none", "--wrk=false", "--engine-cpu=false", "--warmup-time", "250ms", "--pids-limit", "64"}},
		{"line-cost", []string{"--languages", "go", "--libraries", "zap,slog", "--cpus", "0", "--memory", "64MiB", "--lines", "5000"}},
		{"fifo-stall", []string{"--api", "go", "--modes", "none", "--calibrate=false", "--max-send-lag", "2.5ms", "--max-log-bytes", "1GiB", "--client-topology", "split"}},
	} {
		e, err := experiments.Lookup(c.exp)
		if err != nil {
			t.Fatal(err)
		}
		parsed := e.Params()
		if err := experiment.FlagSet(e.Info().Name, parsed).Parse(c.args); err != nil {
			t.Fatalf("%s: %v", c.exp, err)
		}
		viaCLI := e.Params()
		app := &cli.App{Name: "x", Flags: cliFlags(experiment.FlagSet(e.Info().Name, e.Params())),
			Action: func(ctx *cli.Context) error { return parseFlags(ctx, experiment.FlagSet(e.Info().Name, viaCLI)) }}
		if err := app.Run(append([]string{"x"}, c.args...)); err != nil {
			t.Fatalf("%s: %v", c.exp, err)
		}
		if !reflect.DeepEqual(parsed, viaCLI) {
			t.Errorf("%s: the command line set\n%+v\nthe flag set\n%+v", c.exp, viaCLI, parsed)
		}
		if reflect.DeepEqual(parsed, e.Params()) {
			t.Errorf("%s: the flags changed nothing", c.exp)
		}
	}
}
