package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/internal/didyoumean"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/host/lab"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func newApp() *cli.App {
	app := &cli.App{
		Name:    "logbench",
		Usage:   "does one more log line slow the API? measure it on any Docker host",
		Version: version,
		// The app's own help command stands in for urfave/cli's, which then adds no
		// --help flag of its own: without this one, `logbench --help` was bad input.
		Flags:     []cli.Flag{cli.HelpFlag},
		Writer:    os.Stdout,
		ErrWriter: os.Stderr,
		Commands: []*cli.Command{reproduceCommand(), experimentsCommand(), runCommand(), buildCommand(), loadCommand(), cleanCommand(), calibrateCommand(),
			verifyCommand(), archiveCommand(), compareCommand(), reportCommand(), versionCommand(), completionCommand(), helpCommand()},
		EnableBashCompletion: true,
		OnUsageError:         onUsageError,
		ExitErrHandler:       func(*cli.Context, error) {}, // main owns exit codes
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return unknownCommand(c.App, c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
	}
	// --version says what `logbench version` says.
	cli.VersionPrinter = func(c *cli.Context) { printVersion(c.App.Writer) }
	return app
}

// unknownCommand refuses a command the app does not have, with the one it most likely
// meant.
func unknownCommand(app *cli.App, name string) error {
	if hint := didyoumean.Suffix(name, commandNames(app)); hint != "" {
		return usagef("unknown command %q%s", name, hint)
	}
	return usagef("unknown command %q; `logbench help` lists them", name)
}

// mistyped says whether name is near an experiment's name: the argument meant one.
func mistyped(name string) bool {
	_, ok := didyoumean.Closest(name, experiments.Names())
	return ok
}

// commandNames are the app's commands' names and aliases.
func commandNames(app *cli.App) []string {
	var names []string
	for _, cmd := range app.Commands {
		names = append(names, cmd.Names()...)
	}
	return names
}

// helpCommand is `logbench help [COMMAND]`, in place of urfave/cli's, whose unknown
// topic is an error of its own kind: here it is bad input, exit status 2, with the
// command most likely meant.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Aliases:   []string{"h"},
		Usage:     "list the commands, or show one command's help",
		ArgsUsage: "[COMMAND]",
		Action: func(c *cli.Context) error {
			parent := c
			if l := c.Lineage(); len(l) > 1 {
				parent = l[1]
			}
			switch args := c.Args().Slice(); {
			case len(args) == 0:
				return cli.ShowAppHelp(parent)
			case c.App.Command(args[0]) == nil:
				return unknownCommand(c.App, args[0])
			case len(args) > 1:
				return usagef("help takes one command; for a command's experiment: logbench %s %s --help", args[0], args[1])
			default:
				return cli.ShowCommandHelp(parent, args[0])
			}
		},
	}
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
		return unknownFlag(c, name)
	}
	if m := invalidValue.FindStringSubmatch(err.Error()); m != nil {
		return badValue(c, m[2], m[1])
	}
	return usageError{Msg: err.Error()}
}

// invalidValue is the flag package's error for a value of the wrong type, which
// urfave/cli passes on: `invalid value "x" for flag -reps: parse error`.
var invalidValue = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+(\S+): `)

// badValue refuses a value a command's own flag cannot take, saying what it takes.
func badValue(c *cli.Context, name, value string) error {
	want := "not a value this flag takes (`--help` says what it takes)"
	for _, f := range commandFlags(c) {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f := f.(type) {
		case *cli.IntFlag:
			want = wantNumber(strconv.Itoa(f.Value), false)
		case *cli.Float64Flag:
			want = wantNumber(strconv.FormatFloat(f.Value, 'g', -1, 64), true)
		case *cli.BoolFlag:
			want = "want true or false"
		}
	}
	return usagef("--%s %q: %s", name, value, want)
}

// commandFlags are the flags of the command c runs, or the app's.
func commandFlags(c *cli.Context) []cli.Flag {
	switch {
	case c != nil && c.Command != nil && c.Command.HelpName != "":
		return c.Command.Flags
	case c != nil && c.App != nil:
		return c.App.Flags
	}
	return nil
}

// unknownFlag refuses a flag the command does not have, with the one it most likely
// meant.
func unknownFlag(c *cli.Context, name string) error {
	cmd := "logbench"
	if c != nil && c.Command != nil && c.Command.HelpName != "" {
		cmd = c.Command.HelpName
	}
	var names []string
	for _, f := range commandFlags(c) {
		names = append(names, f.Names()...)
	}
	hint := ""
	if s, ok := didyoumean.Closest(strings.TrimLeft(name, "-"), names); ok {
		hint = fmt.Sprintf("; did you mean --%s?", s)
	}
	return usagef("%s has no --%s%s (`%s --help` lists its flags)", strings.TrimPrefix(cmd, "logbench "), strings.TrimLeft(name, "-"), hint, cmd)
}

// say prints one progress line.
func say(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }

func joinNames(names []string) string { return strings.Join(names, ", ") }
