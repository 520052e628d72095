package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/host/engine"
)

// TestEveryFlagSaysWhatItWants: a value no flag can take, given to every flag of every
// experiment's reproduce and to the commands' own number and switch flags, is refused
// as bad input naming the flag and the value and saying what the flag takes (a
// duration, a size, a number, true or false), never the flag package's bare
// "parse error".
func TestEveryFlagSaysWhatItWants(t *testing.T) {
	wasReach := reach
	reach = func(*cli.Context, engine.Endpoint, io.Writer) (*target, error) { return nil, errDryRun }
	t.Cleanup(func() { reach = wasReach })
	type invocation struct {
		args []string
		want string // what the error must say the flag takes; "" for any usage error
	}
	var cases []invocation
	for _, exp := range experiments.All {
		experiment.FlagSet(exp.Info().Name, exp.Params()).VisitAll(func(f *flag.Flag) {
			if isBool(f) {
				cases = append(cases, invocation{[]string{"reproduce", exp.Info().Name, "--" + f.Name + "=maybe"}, "want true or false"})
				return
			}
			cases = append(cases, invocation{[]string{"reproduce", exp.Info().Name, "--" + f.Name, "fast"}, ""})
		})
	}
	cases = append(cases,
		invocation{[]string{"reproduce", "--duration", "fast"}, `--duration "fast": want a duration such as 30s, 2m or 1m30s`},
		invocation{[]string{"reproduce", "--max-send-lag", "soon"}, `--max-send-lag "soon": want a duration such as 500us, 1ms or 2.5ms`},
		invocation{[]string{"reproduce", "--api-memory", "lots"}, `--api-memory "lots": want a size such as 128MiB, 1GiB or 512k`},
		invocation{[]string{"reproduce", "--pids-limit", "1.5"}, `--pids-limit "1.5": want a whole number such as 128`},
		invocation{[]string{"reproduce", "--api-cpus", "x"}, `--api-cpus "x": want a number such as 0.25`},
		invocation{[]string{"reproduce", "--reps", "x"}, `--reps "x": want a whole number such as 3`},
		invocation{[]string{"compare", "a", "b", "--threshold", "x"}, `--threshold "x": want a number such as 1`},
		invocation{[]string{"compare", "--threshold", "x", "a", "b"}, `--threshold "x": want a number such as 1`},
		invocation{[]string{"compare", "--published=maybe", "a"}, `--published "maybe": want true or false`},
	)
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := runApp(t, tc.args...)
			if errors.Is(err, errDryRun) {
				return // the experiment takes any text here (a name, an image)
			}
			var usage usageError
			if !errors.As(err, &usage) || strings.Contains(err.Error(), "parse error") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want bad input saying %q", err, tc.want)
			}
		})
	}
}
