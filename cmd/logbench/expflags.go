package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
)

// cliFlags are an experiment's own flags, bound on fs by its parameters, as the command
// line shows them: each with the experiment's default and usage, the usage naming its
// unit; the flags named in except are left out (a command that has no use for them
// refuses them). This is the one place a flag.Value becomes a cli flag: a switch stays
// a switch, a repeatable value takes every use whole, any other value takes text.
func cliFlags(fs *flag.FlagSet, except ...string) []cli.Flag {
	var out []cli.Flag
	fs.VisitAll(func(f *flag.Flag) {
		switch {
		case slices.Contains(except, f.Name):
		case isBool(f):
			def, _ := strconv.ParseBool(f.DefValue)
			out = append(out, &cli.BoolFlag{Name: f.Name, Usage: f.Usage, Value: def})
		case isRepeatable(f):
			out = append(out, &cli.GenericFlag{Name: f.Name, Usage: f.Usage + " (repeatable)", Value: &wholeValues{}})
		default:
			out = append(out, &cli.StringFlag{Name: f.Name, Usage: f.Usage, Value: f.DefValue})
		}
	})
	return out
}

// parseFlags gives the experiment's set the values the command line set, each through
// the flag's own parser: a value of the wrong type is bad input named by its flag.
func parseFlags(c *cli.Context, fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || !c.IsSet(f.Name) {
			return
		}
		var values []string
		switch {
		case isBool(f):
			values = []string{strconv.FormatBool(c.Bool(f.Name))}
		case isRepeatable(f):
			if w, ok := c.Generic(f.Name).(*wholeValues); ok {
				values = *w
			}
		default:
			values = []string{c.String(f.Name)}
		}
		for _, v := range values {
			if e := fs.Set(f.Name, v); e != nil {
				msg := e.Error()
				if msg == "parse error" || msg == "value out of range" { // the flag package's numbers
					msg = wantNumber(f.DefValue, strings.Contains(fmt.Sprintf("%T", f.Value), "float"))
				}
				err = usagef("--%s %q: %s", f.Name, v, msg)
				return
			}
		}
	})
	return err
}

// wantNumber says what a number flag whose default is def takes: a whole number, or
// any number (fractional).
func wantNumber(def string, fractional bool) string {
	if fractional {
		return "want a number such as " + def
	}
	return "want a whole number such as " + def
}

// isBool says whether f is a switch (--name, --name=false), as the flag package reads it.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// isRepeatable says whether each use of f adds a value.
func isRepeatable(f *flag.Flag) bool {
	r, ok := f.Value.(experiment.RepeatableValue)
	return ok && r.IsRepeatable()
}

// wholeValues is a repeatable flag's uses, each one value, commas and all.
type wholeValues []string

func (w *wholeValues) String() string     { return "" }
func (w *wholeValues) Set(v string) error { *w = append(*w, v); return nil }

// without leaves out the flags named.
func without(flags []cli.Flag, names ...string) []cli.Flag {
	var out []cli.Flag
	for _, f := range flags {
		if !slices.Contains(names, f.Names()[0]) {
			out = append(out, f)
		}
	}
	return out
}

// categorized puts flags under a heading of the help: every kind of flag the commands
// declare, so that none is left outside its heading.
func categorized(category string, flags []cli.Flag) []cli.Flag {
	for _, f := range flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			f.Category = category
		case *cli.BoolFlag:
			f.Category = category
		case *cli.IntFlag:
			f.Category = category
		case *cli.StringSliceFlag:
			f.Category = category
		case *cli.GenericFlag:
			f.Category = category
		}
	}
	return flags
}
