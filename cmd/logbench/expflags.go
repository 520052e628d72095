package main

import (
	"flag"
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
)

// cliFlags are an experiment's own flags as the command line shows them: each with the
// experiment's default and usage, the usage naming its unit; the flags named in except
// are left out (a command that has no use for them refuses them).
func cliFlags(fs *experiment.Flags, except ...string) []cli.Flag {
	var out []cli.Flag
	fs.Set.VisitAll(func(f *flag.Flag) {
		switch {
		case slices.Contains(except, f.Name):
		case fs.IsBool(f.Name):
			def, _ := strconv.ParseBool(f.DefValue)
			out = append(out, &cli.BoolFlag{Name: f.Name, Usage: f.Usage, Value: def})
		case fs.IsWhole(f.Name):
			out = append(out, &cli.GenericFlag{Name: f.Name, Usage: f.Usage + " (repeatable)", Value: &wholeValues{}})
		case fs.Repeatable(f.Name):
			out = append(out, &cli.StringSliceFlag{Name: f.Name, Usage: f.Usage + " (repeatable)"})
		default:
			out = append(out, &cli.StringFlag{Name: f.Name, Usage: f.Usage, Value: f.DefValue})
		}
	})
	return out
}

// parseFlags gives the experiment's set the values the command line set, each through
// the flag's own parser: a value of the wrong type is bad input named by its flag.
func parseFlags(c *cli.Context, fs *experiment.Flags) error {
	var err error
	fs.Set.VisitAll(func(f *flag.Flag) {
		if err != nil || !c.IsSet(f.Name) {
			return
		}
		var values []string
		switch {
		case fs.IsBool(f.Name):
			values = []string{strconv.FormatBool(c.Bool(f.Name))}
		case fs.IsWhole(f.Name):
			if w, ok := c.Generic(f.Name).(*wholeValues); ok {
				values = *w
			}
		case fs.Repeatable(f.Name):
			values = c.StringSlice(f.Name)
		default:
			values = []string{c.String(f.Name)}
		}
		for _, v := range values {
			if e := fs.Set.Set(f.Name, v); e != nil {
				err = usagef("--%s %q: %v", f.Name, v, e)
				return
			}
		}
	})
	return err
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

// categorized puts flags under a heading of the help.
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
		}
	}
	return flags
}
