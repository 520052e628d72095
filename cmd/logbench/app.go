package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/lab"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func newApp() *cli.App {
	app := &cli.App{
		Name:      "logbench",
		Usage:     "does one more log line slow the API? measure it on any Docker host",
		Version:   version,
		Writer:    os.Stdout,
		ErrWriter: os.Stderr,
		Commands: []*cli.Command{reproduceCommand(), experimentsCommand(), runCommand(), buildCommand(), loadCommand(), cleanCommand(), calibrateCommand(),
			verifyCommand(), archiveCommand(), compareCommand(), reportCommand()},
		OnUsageError:   onUsageError,
		ExitErrHandler: func(*cli.Context, error) {}, // main owns exit codes
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("unknown command %q; `logbench help` lists them", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
	}
	return app
}

// usageError is bad input: main exits with status 2 and nothing was started. It is the
// experiments' own, so that their flags' errors are bad input too.
type usageError = experiment.UsageError

func usagef(format string, args ...any) error { return usageError{Msg: fmt.Sprintf(format, args...)} }

// interruptedError ends a command stopped by SIGINT or SIGTERM: main exits with 130.
type interruptedError = lab.Interrupted

// onUsageError says a flag the command does not have in the command's own words: an
// experiment's flag given to another experiment is refused, never ignored.
func onUsageError(c *cli.Context, err error, _ bool) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		cmd := "logbench"
		if c != nil && c.Command != nil && c.Command.HelpName != "" {
			cmd = c.Command.HelpName
		}
		return usagef("%s has no --%s (`%s --help` lists its flags)", strings.TrimPrefix(cmd, "logbench "), name, cmd)
	}
	return usageError{Msg: err.Error()}
}

// say prints one progress line.
func say(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }

func joinNames(names []string) string { return strings.Join(names, ", ") }
