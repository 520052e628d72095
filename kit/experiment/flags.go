package experiment

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docker/go-units"
)

// Flags are an experiment's parameters as a command line gives them: a standard
// library flag set that the experiment declares (DeclareFlags: names, its own
// defaults, units in the usage) and reads back by name once parsed. The contract stays
// free of any CLI library: cmd/logbench turns the set into its own flags, and a test
// parses it alone.
type Flags struct {
	Set *flag.FlagSet
}

// FlagsOf declares e's flags on a fresh set.
func FlagsOf(e Experiment) *Flags { return NewFlags(e.Name(), e.DeclareFlags) }

// NewFlags is a fresh set named name, with the flags declare declares.
func NewFlags(name string, declare func(*flag.FlagSet)) *Flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	declare(fs)
	return &Flags{fs}
}

// Strings is a repeatable flag: each use adds one value.
type Strings []string

func (s *Strings) String() string { return strings.Join(*s, ",") }
func (s *Strings) Set(v string) error {
	*s = append(*s, v)
	return nil
}
func (s *Strings) Get() any { return []string(*s) }

// Whole is a repeatable flag whose values hold commas of their own
// (--config file:A=1,B=2): each use is one value, which a command line never splits at
// its commas as it may a Strings flag's.
type Whole struct{ Strings }

// Repeatable says whether the flag name takes several uses.
func (f *Flags) Repeatable(name string) bool {
	fl := f.Set.Lookup(name)
	if fl == nil {
		return false
	}
	switch fl.Value.(type) {
	case *Strings, *Whole:
		return true
	}
	return false
}

// IsWhole says whether the flag name is a Whole: repeatable, each use one value.
func (f *Flags) IsWhole(name string) bool {
	fl := f.Set.Lookup(name)
	if fl == nil {
		return false
	}
	_, ok := fl.Value.(*Whole)
	return ok
}

// IsBool says whether the flag name is a switch (--name, --name=false).
func (f *Flags) IsBool(name string) bool {
	fl := f.Set.Lookup(name)
	if fl == nil {
		return false
	}
	b, ok := fl.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// IsSet says whether the flag name was given.
func (f *Flags) IsSet(name string) bool {
	set := false
	f.Set.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

func (f *Flags) get(name string) any {
	fl := f.Set.Lookup(name)
	if fl == nil {
		panic(fmt.Sprintf("experiment %s reads a flag it did not declare: %s", f.Set.Name(), name))
	}
	return fl.Value.(flag.Getter).Get()
}

// The values of declared flags, by name, as declared: reading a flag under another type
// or one never declared is the experiment's bug, and panics.
func (f *Flags) String(name string) string          { return f.get(name).(string) }
func (f *Flags) Int(name string) int                { return f.get(name).(int) }
func (f *Flags) Int64(name string) int64            { return f.get(name).(int64) }
func (f *Flags) Float64(name string) float64        { return f.get(name).(float64) }
func (f *Flags) Bool(name string) bool              { return f.get(name).(bool) }
func (f *Flags) Duration(name string) time.Duration { return f.get(name).(time.Duration) }
func (f *Flags) StringSlice(name string) []string   { return f.get(name).([]string) }

// CPUs reads a CPU limit, in CPUs: 0.01 to 1024 in every experiment.
func (f *Flags) CPUs(name string) (float64, error) {
	v := f.Float64(name)
	if !(v >= 0.01 && v <= 1024) {
		return 0, Usagef("--%s %v: want 0.01 to 1024 CPUs", name, v)
	}
	return v, nil
}

// MinMemory is the least memory limit the engine accepts.
const MinMemory = 6 << 20

// Size reads a size (128MiB, 1g) of at least least bytes.
func (f *Flags) Size(name string, least int64) (int64, error) {
	s := f.String(name)
	v, err := units.RAMInBytes(s)
	if err != nil || v < least {
		return 0, Usagef("--%s %q: want a size of at least %s, such as 128MiB", name, s, units.BytesSize(float64(least)))
	}
	return v, nil
}

// MinPids is the least process/thread limit every experiment accepts for a container.
const MinPids = 16

// Pids reads a process/thread limit of at least MinPids.
func (f *Flags) Pids(name string) (int64, error) {
	v := f.Int64(name)
	if v < MinPids {
		return 0, Usagef("--%s %d: want at least %d", name, v, MinPids)
	}
	return v, nil
}

// Limits are the limits of an API's container and its load generator's, as the flags
// api-cpus, api-memory, loadgen-cpus, loadgen-memory and pids-limit give them. An
// experiment's bundle schema keeps its own type with the same fields (converted, tags
// aside), so that what a bundle holds stays the experiment's to say.
type Limits struct {
	APICPUs            float64
	APIMemoryBytes     int64
	LoadgenCPUs        float64
	LoadgenMemoryBytes int64
	PidsLimit          int64
}

// Limits reads the API's and the load generator's limits, each checked, CPUs first.
func (f *Flags) Limits() (l Limits, err error) {
	if l.APICPUs, err = f.CPUs("api-cpus"); err != nil {
		return Limits{}, err
	}
	if l.LoadgenCPUs, err = f.CPUs("loadgen-cpus"); err != nil {
		return Limits{}, err
	}
	if l.APIMemoryBytes, err = f.Size("api-memory", MinMemory); err != nil {
		return Limits{}, err
	}
	if l.LoadgenMemoryBytes, err = f.Size("loadgen-memory", MinMemory); err != nil {
		return Limits{}, err
	}
	if l.PidsLimit, err = f.Pids("pids-limit"); err != nil {
		return Limits{}, err
	}
	return l, nil
}
