package experiment

import "flag"

// Flag is one parameter as its flag and its rule, declared once: Bind declares the flag
// bound to its field, Check refuses a value no plan can have, flag and manifest alike.
// An experiment's Params list theirs as Flags in the usage's order, and bind and check
// through the one list: no flag goes without its rule, and the rules run in the flags'
// order, the same first problem every time.
type Flag struct {
	Bind  func(fs *flag.FlagSet) // nil: a rule of no one flag (--wrk with --pipelining)
	Check func() error           // nil: every value the flag parses is one a plan can have
}

// Tracking is the flag f, noting in given whether the command line sets it (Given).
func (f Flag) Tracking(given *bool) Flag {
	bind := f.Bind
	f.Bind = func(fs *flag.FlagSet) { Given(fs, given, bind) }
	return f
}

// Flags are an experiment's parameters as flags, in the usage's order.
type Flags []Flag

// Bind declares every flag on fs.
func (fl Flags) Bind(fs *flag.FlagSet) {
	for _, f := range fl {
		if f.Bind != nil {
			f.Bind(fs)
		}
	}
}

// Check is the first problem of the flags' rules, in their order.
func (fl Flags) Check() error {
	for _, f := range fl {
		if f.Check == nil {
			continue
		}
		if err := f.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Rule is a rule that no one flag owns, placed among the flags where it is checked.
func Rule(check func() error) Flag { return Flag{Check: check} }

// UsageIf is Usagef when bad holds, nil otherwise: a flag's rule that Within cannot say.
func UsageIf(bad bool, format string, args ...any) error {
	if bad {
		return Usagef(format, args...)
	}
	return nil
}

// IntFlag is a count's flag: lo to hi.
func IntFlag[T int | int64](p *T, name string, lo, hi T, usage string) Flag {
	return IntFlagSaying(p, name, lo, hi, "", usage)
}

// IntFlagSaying is IntFlag whose refusal says more after the range, as Within does
// (" lines per trial").
func IntFlagSaying[T int | int64](p *T, name string, lo, hi T, more, usage string) Flag {
	return Flag{func(fs *flag.FlagSet) {
		// The flag package's own int and int64 flags: their usage names the type.
		switch p := any(p).(type) {
		case *int:
			fs.IntVar(p, name, *p, usage)
		case *int64:
			fs.Int64Var(p, name, *p, usage)
		}
	}, func() error { return Within(name, *p, lo, hi, more) }}
}

// SecondsFlag is a duration's flag (5s, 250ms) kept in seconds: least to most.
func SecondsFlag(p *float64, name string, least, most float64, usage string) Flag {
	return Flag{func(fs *flag.FlagSet) { fs.Var(Seconds(p), name, usage) }, func() error { return WithinSeconds(name, *p, least, most) }}
}

// StringFlag is a text's flag with its rule (nil: any text).
func StringFlag(p *string, name, usage string, check func() error) Flag {
	return Flag{func(fs *flag.FlagSet) { fs.StringVar(p, name, *p, usage) }, check}
}

// BoolFlag is a switch: either value is a plan's.
func BoolFlag(p *bool, name, usage string) Flag {
	return Flag{Bind: func(fs *flag.FlagSet) { fs.BoolVar(p, name, *p, usage) }}
}

// NamesFlag is a comma-separated list of names, each one of known (CheckList).
func NamesFlag(p *[]string, name string, known []string, usage string) Flag {
	return Flag{func(fs *flag.FlagSet) { fs.Var(List(p), name, usage) }, func() error { return CheckList(name, *p, known) }}
}

// Of is the CPU limit's flag bound to p.
func (f CPUsFlag) Of(p *float64) Flag {
	return Flag{func(fs *flag.FlagSet) { f.Bind(fs, p) }, func() error { return f.Check(*p) }}
}

// Of is the memory limit's flag bound to p.
func (f SizeFlag) Of(p *int64) Flag {
	return Flag{func(fs *flag.FlagSet) { f.Bind(fs, p) }, func() error { return f.Check(*p) }}
}

// Of is the process limit's flag bound to p.
func (f PidsFlag) Of(p *int64) Flag {
	return Flag{func(fs *flag.FlagSet) { f.Bind(fs, p) }, func() error { return f.Check(*p) }}
}

// Of is the list's flag bound to p.
func (f ListFlag[T]) Of(p *[]T) Flag {
	return Flag{func(fs *flag.FlagSet) { f.Bind(fs, p) }, func() error { return f.Check(*p) }}
}

// LogDriverFlags are --log-driver and --log-opt bound to driver and opts, with their
// rule (CheckLogDriver) after both.
func LogDriverFlags(driver *string, opts *map[string]string) Flag {
	return Flag{func(fs *flag.FlagSet) { BindLogDriver(fs, driver, opts) }, func() error { return CheckLogDriver(*driver, *opts) }}
}
