package experiment

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Params are an experiment's parameters: one typed struct, the one its manifest records
// as "parameters", which declares its own flags and holds its own rules. The contract
// stays free of any CLI library: cmd/logbench turns the bound set into its own flags,
// and a test parses it alone.
type Params interface {
	// Bind declares each flag on fs bound to a field, through a flag.Value of the
	// standard library: the flag's default is the field's value when Bind is called,
	// its unit is in the usage. A name two experiments share means the same thing in
	// the same unit in both.
	Bind(fs *flag.FlagSet)
	// Check refuses what no plan can have, in a fixed order: the first problem, one line
	// naming the flag (a UsageError). It runs on the parsed flags and on every manifest
	// the kit reads (CheckManifest), so a bundle holds only what a flag could have set.
	Check() error
}

// Caps on what parameters may ask for, flag and manifest alike. A manifest is input:
// a count in it sizes what the kit allocates (conditions, pods, rows), so none is taken
// unbounded.
const (
	// MaxRounds is the most rounds a matrix has (reproduce's --reps).
	MaxRounds = 100
	// MaxListValues is the most values a list parameter holds (APIs, configurations,
	// modes, libraries...): every experiment's lists are a few known names.
	MaxListValues = 64
	// MaxConnections and MaxPipelining bound a closed loop's load: connections kept open
	// at once (each a socket pair in the pod), and requests in flight on each.
	MaxConnections = 10000
	MaxPipelining  = 1000
)

// FlagSet is a fresh flag set named name with p's flags bound: parsing it sets p.
func FlagSet(name string, p Params) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	p.Bind(fs)
	return fs
}

// Own is p as the parameters type P that an experiment's Params made; parameters of
// another experiment are the caller's mistake, an error rather than a panic.
func Own[P Params](p Params) (P, error) {
	own, ok := p.(P)
	if !ok {
		return own, fmt.Errorf("parameters %T, not %T", p, own)
	}
	return own, nil
}

// Settled is Params whose plan records fields no flag sets, filled in from the flags
// (max_run_time_s from --duration; the other load shape's fields zero): CheckSettled
// refuses a manifest whose such fields are not what the plan records, one line naming
// the field. Check alone cannot: on the flags, before the plan, they are not filled in.
type Settled interface {
	CheckSettled() error
}

// CheckManifest holds a manifest's parameters to their Check, the rules of the flags
// that set them, and, for Settled parameters, to what the plan records: parameters
// that fail are a problem of the manifest, and are emptied, so that nothing sized by
// them is allocated (a plan's conditions, its runs).
func CheckManifest[T any, P interface {
	*T
	Check() error
}](res *verify.Result, p P) bool {
	err := p.Check()
	if err != nil {
		err = fmt.Errorf("%w (the rule of the flag that sets it)", err)
	} else if s, ok := any(p).(Settled); ok {
		err = s.CheckSettled()
	}
	if err != nil {
		res.Problem(verify.Problem{File: bundle.ManifestFile, Column: "parameters", Msg: err.Error()})
		*p = *new(T)
		return false
	}
	if l, ok := any(p).(CPULimited); ok && res.Common != nil {
		for _, c := range l.CPULimits() {
			verify.CPULimitWithinHost(res, c.Field, c.CPUs, res.Common)
		}
	}
	return true
}

// CPULimited is Params that give containers CPU limits, which CheckManifest holds to
// the host's CPUs (verify.CPULimitWithinHost).
type CPULimited interface {
	CPULimits() []CPULimit
}

// CPULimit is a container's CPU limit as a manifest records it: its field
// ("parameters.limits.api_cpus") and its CPUs (0: none).
type CPULimit struct {
	Field string
	CPUs  float64
}

// RepeatableValue is a flag.Value whose flag takes several uses, each adding one value
// whole (commas and all) rather than replacing the last: a command line hands it every
// use, one at a time.
type RepeatableValue interface {
	flag.Value
	IsRepeatable() bool
}

// Given declares on fs the flag declare declares, noting in given whether the command
// line sets it (even at its default), for a rule about a flag given rather than its
// value: "--rate does nothing with --load closed". A manifest never sets it. The flag is
// wrapped as it is declared, so that no rule finds it again by its name.
func Given(fs *flag.FlagSet, given *bool, declare func(fs *flag.FlagSet)) {
	declared := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	declare(declared)
	declared.VisitAll(func(f *flag.Flag) { fs.Var(givenValue{f.Value, given}, f.Name, f.Usage) })
}

type givenValue struct {
	flag.Value
	given *bool
}

func (g givenValue) String() string {
	if g.Value == nil {
		return ""
	}
	return g.Value.String()
}

func (g givenValue) Set(s string) error {
	*g.given = true
	return g.Value.Set(s)
}

// IsBoolFlag and IsRepeatable keep what the wrapped value is, for the flag package
// and the command line.
func (g givenValue) IsBoolFlag() bool {
	b, ok := g.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (g givenValue) IsRepeatable() bool {
	r, ok := g.Value.(RepeatableValue)
	return ok && r.IsRepeatable()
}

// Seconds binds a duration flag (5s, 250ms) to a field that keeps seconds, as manifests
// do.
func Seconds(p *float64) flag.Value { return durationIn{p, time.Second} }

// Milliseconds binds a duration flag to a field that keeps milliseconds.
func Milliseconds(p *float64) flag.Value { return durationIn{p, time.Millisecond} }

// WantDuration, WantShortDuration and WantSize say what a duration or size flag takes,
// as its error says it: a value that does not parse is refused with an example, never
// a bare "parse error".
const (
	WantDuration      = "want a duration such as 30s, 2m or 1m30s"
	WantShortDuration = "want a duration such as 500us, 1ms or 2.5ms"
	WantSize          = "want a size such as 128MiB, 1GiB or 512k"
)

type durationIn struct {
	v    *float64
	unit time.Duration
}

func (d durationIn) String() string {
	if d.v == nil {
		return "0s"
	}
	return time.Duration(math.Round(*d.v * float64(d.unit))).String()
}
func (d durationIn) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		if d.unit < time.Second {
			return errors.New(WantShortDuration)
		}
		return errors.New(WantDuration)
	}
	*d.v = float64(v) / float64(d.unit)
	return nil
}

// FormatSeconds says seconds as a duration flag spells them ("1m30s").
//
// A value beyond what a time.Duration holds (about 292 years), which only a forged
// manifest carries, is written in seconds rather than overflowed into a negative.
func FormatSeconds(s float64) string {
	if ns := math.Round(s * 1e9); math.Abs(ns) < math.MaxInt64 {
		return time.Duration(ns).String()
	}
	return strconv.FormatFloat(s, 'g', -1, 64) + "s"
}

// Bytes binds a size flag (128MiB, 1g) to a field that keeps bytes.
func Bytes(p *int64) flag.Value { return bytesValue{p} }

type bytesValue struct{ v *int64 }

func (b bytesValue) String() string {
	if b.v == nil {
		return "0B"
	}
	return units.BytesSize(float64(*b.v))
}
func (b bytesValue) Set(s string) error {
	v, err := units.RAMInBytes(s)
	if err != nil {
		return errors.New(WantSize)
	}
	*b.v = v
	return nil
}

// List binds a comma-separated flag ("none,console") to a list: blanks and repeats are
// left out, and a new use replaces the list. A flag given no value leaves an empty list,
// never a nil one (which a manifest may use for a list it predates).
func List(p *[]string) flag.Value { return listValue{p} }

type listValue struct{ v *[]string }

func (l listValue) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, ",")
}
func (l listValue) Set(s string) error {
	out := []string{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	*l.v = out
	return nil
}

// OneOrAll binds a flag that names one value of all, or "all" of them (--api go, --api
// all), to a list.
func OneOrAll(p *[]string, all []string) flag.Value { return oneOrAll{p, all} }

type oneOrAll struct {
	v   *[]string
	all []string
}

func (o oneOrAll) String() string {
	if o.v == nil {
		return ""
	}
	if len(*o.v) > 1 && slices.Equal(*o.v, o.all) {
		return "all"
	}
	return strings.Join(*o.v, ",")
}
func (o oneOrAll) Set(s string) error {
	if s = strings.TrimSpace(s); s == "all" {
		*o.v = slices.Clone(o.all)
	} else {
		*o.v = []string{s}
	}
	return nil
}

// Negated binds a switch to a field that keeps its opposite (--writable-root to
// read_only_root).
func Negated(p *bool) flag.Value { return negated{p} }

type negated struct{ v *bool }

func (n negated) IsBoolFlag() bool { return true }
func (n negated) String() string {
	if n.v == nil {
		return "false"
	}
	return strconv.FormatBool(!*n.v)
}
func (n negated) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	*n.v = !b
	return nil
}

// CheckList refuses a list parameter with no value, more than MaxListValues, a value
// twice (a flag never gives one twice; a manifest may), or one not in known.
func CheckList(name string, values, known []string) error {
	switch {
	case len(values) == 0:
		return Usagef("--%s: none given (known: %s)", name, strings.Join(known, ", "))
	case len(values) > MaxListValues:
		return Usagef("--%s: %d values, at most %d", name, len(values), MaxListValues)
	}
	for i, v := range values {
		switch {
		case !slices.Contains(known, v):
			return Usagef("--%s: unknown %q (known: %s)", name, v, strings.Join(known, ", "))
		case slices.Contains(values[:i], v):
			return Usagef("--%s: %q given twice", name, v)
		}
	}
	return nil
}

// CPUsFlag is a CPU limit's flag, in CPUs: 0.01 to 1024, or 0 (no limit) when NoLimit.
type CPUsFlag struct {
	Name, Usage string
	NoLimit     bool
}

// Bind declares the flag bound to p.
func (f CPUsFlag) Bind(fs *flag.FlagSet, p *float64) { fs.Float64Var(p, f.Name, *p, f.Usage) }

// Check refuses a limit out of range.
func (f CPUsFlag) Check(v float64) error {
	switch {
	case f.NoLimit && v == 0:
	case !(v >= 0.01 && v <= 1024) && f.NoLimit:
		return Usagef("--%s %v: want 0 (no limit) or 0.01 to 1024 CPUs", f.Name, v)
	case !(v >= 0.01 && v <= 1024):
		return Usagef("--%s %v: want 0.01 to 1024 CPUs", f.Name, v)
	}
	return nil
}

// With is the flag with a note of the experiment's after its usage ("the service's").
func (f CPUsFlag) With(note string) CPUsFlag { f.Usage += ": " + note; return f }

// MinMemory is the least memory limit the engine accepts.
const MinMemory = 6 << 20

// MaxMemory bounds a memory limit: no host the kit runs on has more (the bound verify
// holds the engine's memory to).
const MaxMemory = verify.MaxHostMemoryBytes

// SizeFlag is a memory limit's flag (128MiB, 1g): at least Least bytes.
type SizeFlag struct {
	Name, Usage string
	Least       int64
}

// Bind declares the flag bound to p.
func (f SizeFlag) Bind(fs *flag.FlagSet, p *int64) { fs.Var(Bytes(p), f.Name, f.Usage) }

// Check refuses a size below Least, or past MaxMemory.
func (f SizeFlag) Check(v int64) error {
	if v < f.Least || v > MaxMemory {
		return Usagef("--%s %s: want a size of at least %s, such as 128MiB", f.Name, units.BytesSize(float64(v)), units.BytesSize(float64(f.Least)))
	}
	return nil
}

// With is the flag with a note of the experiment's after its usage.
func (f SizeFlag) With(note string) SizeFlag { f.Usage += ": " + note; return f }

// MinPids is the least process/thread limit every experiment accepts for a container.
const MinPids = 16

// MaxPids bounds a process/thread limit (the kernel's own pid_max is at most 2^22).
const MaxPids = 1 << 22

// PidsFlag is a process/thread limit's flag: MinPids to MaxPids.
type PidsFlag struct{ Name, Usage string }

// Bind declares the flag bound to p.
func (f PidsFlag) Bind(fs *flag.FlagSet, p *int64) { fs.Int64Var(p, f.Name, *p, f.Usage) }

// Check refuses a limit out of range.
func (f PidsFlag) Check(v int64) error {
	if v < MinPids || v > MaxPids {
		return Usagef("--%s %d: want %d to %d", f.Name, v, MinPids, MaxPids)
	}
	return nil
}

// The limits' flags every experiment that has such a container declares: one name, one
// usage, one rule.
var (
	APICPUsFlag       = CPUsFlag{Name: "api-cpus", Usage: "CPU limit of the API container, in CPUs (0.01 to 1024)"}
	APIMemoryFlag     = SizeFlag{Name: "api-memory", Usage: "memory limit of the API container (no swap)", Least: MinMemory}
	LoadgenCPUsFlag   = CPUsFlag{Name: "loadgen-cpus", Usage: "CPU limit of the load generator container, in CPUs (0.01 to 1024)"}
	LoadgenMemoryFlag = SizeFlag{Name: "loadgen-memory", Usage: "memory limit of the load generator container (no swap)", Least: MinMemory}
	PidsLimitFlag     = PidsFlag{Name: "pids-limit", Usage: "process/thread limit of each container"}
	// MeasuringCPUsFlag is the CPU limit of a container that measures itself alone
	// (line-cost), which may also run without one.
	MeasuringCPUsFlag = CPUsFlag{Name: "cpus", Usage: "CPU limit of the measuring container, in CPUs (0.01 to 1024; 0: no limit)", NoLimit: true}
)

// Limits are the limits of an API's container and its load generator's, and the
// process limit of every container, as the flags api-cpus, api-memory, loadgen-cpus,
// loadgen-memory and pids-limit give them and a manifest records them
// (parameters.limits); a CPU limit of 0 is none, recorded as such. An experiment whose
// pods have a further container (fifo-stall's reader, log-driver's consumer) embeds
// them beside that container's own limits, so that these are declared, bound and
// checked once.
type Limits struct {
	APICPUs            float64 `json:"api_cpus"`
	APIMemoryBytes     int64   `json:"api_memory_bytes"`
	LoadgenCPUs        float64 `json:"loadgen_cpus"`
	LoadgenMemoryBytes int64   `json:"loadgen_memory_bytes"`
	PidsLimit          int64   `json:"pids_limit"`
}

// Flags are the five limits' flags bound to l, each with its rule, in the usage's
// order: the API's (its usage with apiNote when not empty, "the service's"), then a
// further container's (further), then the load generator's and the process limit.
func (l *Limits) Flags(apiNote string, further ...Flag) Flags {
	apiCPUs, apiMemory := APICPUsFlag, APIMemoryFlag
	if apiNote != "" {
		apiCPUs, apiMemory = apiCPUs.With(apiNote), apiMemory.With(apiNote)
	}
	return slices.Concat(Flags{apiCPUs.Of(&l.APICPUs), apiMemory.Of(&l.APIMemoryBytes)}, further,
		Flags{LoadgenCPUsFlag.Of(&l.LoadgenCPUs), LoadgenMemoryFlag.Of(&l.LoadgenMemoryBytes), PidsLimitFlag.Of(&l.PidsLimit)})
}

// CPULimits are the API's, a further container's (further) and the load generator's
// CPU limits, by manifest field.
func (l Limits) CPULimits(further ...CPULimit) []CPULimit {
	return slices.Concat([]CPULimit{{Field: "parameters.limits.api_cpus", CPUs: l.APICPUs}}, further,
		[]CPULimit{{Field: "parameters.limits.loadgen_cpus", CPUs: l.LoadgenCPUs}})
}

// CheckRounds refuses a matrix of no round or more than MaxRounds (--reps).
func CheckRounds(n int) error {
	if n < 1 || n > MaxRounds {
		return Usagef("--reps %d: want 1 to %d", n, MaxRounds)
	}
	return nil
}
