// Package experiment says what an experiment is to the kit: its name and published
// source, its conditions (the axes of its matrix), the pods its runs start, how a run's
// raw result becomes rows in its bundle, and how a bundle of it is verified. The runner,
// the matrix (rotation, resume, progress), bundle writing and the bundle commands serve
// every experiment through these types, so adding an experiment adds a package, not a
// case to every command.
//
// Nothing here links the engine's client: an experiment describes its pods as data, and
// kit/host runs them.
package experiment

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Experiment is one published experiment: what `logbench experiments` lists, what
// reproduce runs, and what the bundle commands read. Its runner and its offline part
// are interfaces of their own, so that each can be read (and faked) alone.
type Experiment interface {
	// Info names the experiment and its bundle's files.
	Info() Info
	Runner
	Offline
}

// Info is what the kit says of an experiment without running it or reading a bundle:
// data, so that a command reads a field where it would otherwise ask a method.
type Info struct {
	// Name is short and self-explaining: "fifo-stall".
	Name string
	// Summary is one line for `logbench experiments`.
	Summary string
	// Source names where the published figures come from.
	Source string
	// Question is the one its report opens by answering; "" leaves the report its
	// general one.
	Question string
	// Layout is a bundle's files in the order an archive holds them, SHA256SUMS last.
	Layout []string
	// Reference, when the bundle holds its own reference (a baseline condition the
	// manifest names, where the others' is a second bundle or the published figures),
	// says what one bundle is compared against, for compare's messages: "the bundle's
	// baseline configuration". compare then takes one bundle alone, without
	// --published, and the experiment's Compare sets its conditions against that one.
	Reference string
}

// Runner turns the command line into a plan of runs, or continues a bundle's.
type Runner interface {
	// Params are the experiment's parameters at its defaults, fresh at each call: the
	// struct its manifest records, which binds its flags (its axes, load, limits) and
	// checks itself.
	Params() Params
	// Plan checks p, made by Params and its flags parsed, with rounds into a plan of
	// rounds, every problem before anything is started (before the engine is reached).
	Plan(p Params, rounds int) (Plan, error)
	// Resume continues an interrupted bundle of this experiment with the bundle's own
	// parameters; the bundle must verify.
	Resume(dir string) (Plan, error)
}

// Offline reads the experiment's bundles, with no engine.
type Offline interface {
	// Verify checks a bundle of this experiment: every file, checksum and figure.
	Verify(files *bundle.Files) *verify.Result
	// Figures are a verified bundle's figures: one row per condition and metric with
	// each run's values. compare sets them side by side, and verify and report state
	// them, each figure with the one interval compare.Estimate gives it.
	Figures(res *verify.Result) ([]compare.Row, error)
	// Compare writes verified bundles of this experiment side by side through the
	// comparison engine (kit/offline/compare), and the published figures with
	// opt.Published; warnings go to warn.
	Compare(out, warn io.Writer, sources []Source, opt CompareOptions) error
	// Report draws verified bundles of this experiment as one self-contained HTML
	// page, several on the same axes.
	Report(w io.Writer, sources []Source, version string) error
}

// Source is one verified bundle to compare, with its label.
type Source struct {
	Label  string
	Result *verify.Result
}

// EmulatedAgainstNative says why sources may not be set side by side: some ran
// emulated (their figures time the emulator) and some natively; "" when all are alike.
func EmulatedAgainstNative(sources []Source) string {
	var emulated, native []string
	for _, s := range sources {
		if s.Result.Common.Emulated {
			emulated = append(emulated, s.Label)
		} else {
			native = append(native, s.Label)
		}
	}
	if len(emulated) == 0 || len(native) == 0 {
		return ""
	}
	return fmt.Sprintf("%s ran emulated (its figures time the emulator, not a measurement), %s natively", strings.Join(emulated, ", "), strings.Join(native, ", "))
}

// CompareOptions are compare's flags.
type CompareOptions struct {
	Published bool
	Format    string
	// Match names the condition keys two rows must agree on (--match mode,reader sets
	// one API against another); empty: the experiment's default.
	Match []string
	// Wide keeps every metric and column in text; without it text fits 120 columns.
	Wide bool
	// Threshold is the practical threshold in %: a smaller change is never counted as
	// changed, whatever its p. 0 takes the default (1%); negative is none.
	Threshold float64
}

// Env is the engine a plan will run on, and the platform of its images.
type Env struct {
	Engine   contract.EngineFacts
	Platform string
	// VolumeExists asks the engine whether a named volume exists, for a plan that
	// writes to one the user names; nil when the engine cannot be asked.
	VolumeExists func(name string) (bool, error)
	// Image asks the engine for an image it already has, by reference: its ID, or
	// found false; nil when the engine cannot be asked.
	Image func(ref string) (id string, found bool, err error)
}

// Noter is a plan with something to say under its size: what it leaves out, and why
// (line-cost: the ways a library does not offer).
type Noter interface {
	Notes() []string
}

// Preparer is a plan with work to do on the engine before its first run (the
// fifo-stall experiment calibrates its instrument); a failure there is said on out, and
// an error only for what stops the command.
type Preparer interface {
	Prepare(ctx context.Context, pods Pods, images map[string]string, imageBuild time.Duration, out io.Writer) error
}

// Plan is a validated matrix of one experiment and the bundle it fills.
type Plan interface {
	// Conditions are the matrix's cells, in the order of the first round.
	Conditions() []Condition
	// Rounds is how many times each condition runs.
	Rounds() int
	// SetRounds makes the plan n rounds long, the manifest's parameters with it:
	// reproduce --precision adds rounds one at a time.
	SetRounds(n int)
	// Images names the images the runs need (see kit/host/images).
	Images() []string
	// Pod describes one run's containers; images maps each name of Images to the ID
	// built for the engine.
	Pod(cond Condition, runID string, images map[string]string) PodSpec
	// Bundle is the bundle the runs go into (fresh, or the one being resumed).
	Bundle() Bundle
	// Target is told the engine once it is reached, before any image is built: the plan
	// records it and refuses what the engine cannot do, as bad input.
	Target(env Env) error
}

// Bundle is an experiment's bundle in memory, as the matrix fills it.
type Bundle interface {
	// Common is the part of the manifest every experiment has.
	Common() *bundle.Common
	// Measured says whether the pod left anything measured: a run stopped by an
	// interrupt or a broken engine before measuring is not kept.
	Measured(run Run) bool
	// Add derives a run's rows from what the pod left and keeps them, failed or not; it
	// returns the run's progress line and whether the run is data.
	Add(run Run) (line string, verified bool)
	// Has says whether the bundle holds the run of cond in round, for resuming.
	Has(cond Condition, round int) bool
	// Files are every file of the bundle but SHA256SUMS, as written.
	Files() (map[string][]byte, error)
	// Summary writes the table reproduce ends with: every condition's figures beside the
	// published ones.
	Summary(w io.Writer) error
}

// Retrier is a Bundle that has runs redone: after each Add, the matrix asks it whether
// the run is to be performed again (the fifo-stall experiment redoes a run whose load
// generator was later than its bound). Every attempt stays in the bundle; when Retry
// says yes, the bundle has marked the run superseded, so that it counts in none of the
// condition's figures and Has no longer counts it as the round's run.
type Retrier interface {
	// Retry says whether run, just added, is to be performed again.
	Retry(run Run) bool
	// Attempts is how many attempts of cond in round the bundle holds, for numbering
	// the next one (a resumed matrix goes on counting).
	Attempts(cond Condition, round int) int
}

// Run is one run as the matrix performed it.
type Run struct {
	ID        string
	Condition Condition
	Round     int // 1-based
	Position  int // 1-based place in its round
	// Attempt counts the performances of the condition in this round, from 1: a run
	// redone (Retrier) is performed again as the next attempt.
	Attempt int
	Started time.Time
	Wall    time.Duration // the kit's whole run, from creating the pod to removing it
	Pod     PodResult
	// Failure is what the engine side saw go wrong ("" when nothing did): a container
	// that died or was killed, an engine error.
	Failure string
}

// Condition is one cell of an experiment's matrix, typed by its experiment (fifo-stall's
// has an API, a logging mode and a reader): a plan hands out its own conditions, and is
// handed them back. String names the condition ("go/json-sync/slow") wherever it is
// written, and two conditions are the same when their names are.
type Condition interface{ String() string }

// NanoCPUs is a CPU limit in the engine's unit: 250_000_000 is 0.25 CPU.
func NanoCPUs(cpus float64) int64 { return int64(math.Round(cpus * 1e9)) }

// VolumeSafe makes a run ID fit the engine's names of volumes and containers
// ([a-zA-Z0-9][a-zA-Z0-9_.-]*): "console+file" becomes "console_file".
func VolumeSafe(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, id)
}

// ContainerSpec is one container of a pod.
type ContainerSpec struct {
	Role        string // "api", "reader", "loadgen"
	Image       string
	Cmd         []string
	NanoCPUs    int64 // 250_000_000 is 0.25 CPU; 0: no limit
	MemoryBytes int64 // hard limit; swap is not allowed on top; 0: no limit
	// Entrypoint replaces the image's when not empty: a program the image holds beside
	// its usual one (the line-cost measurement in the API images).
	Entrypoint []string
	// LogDriver and LogOpts choose the engine's logging driver of the container's
	// stdout and stderr, as the docker CLI spells them ("json-file", "local", "none";
	// "mode": "non-blocking"); "" keeps the engine's default.
	LogDriver string
	LogOpts   map[string]string
	// HostPIDs puts the container in the host's PID namespace, so that it can read the
	// engine's own processes in /proc (still read-only, no capabilities, unprivileged).
	HostPIDs bool
	// HostNetwork puts the container in the host's network namespace instead of the
	// pod's: a receiver that the engine's daemon itself sends to (a syslog log driver
	// dials from the host), listening on the host's loopback. It never owns the pod's
	// network namespace, and a container started after it whose logging driver cannot
	// reach it yet is started again until it can, for a few seconds.
	HostNetwork bool
	// Env are environment variables NAME=VALUE added to the image's.
	Env []string
	// MountPath puts the pod's volume at another path in this container than the pod's
	// (a foreign image's log directory); "" is PodSpec.MountPath.
	MountPath string
	// Relax loosens the kit's hardening for this container (a foreign image that needs
	// it); nil keeps all of it.
	Relax *Relax
}

// Relax is what a container is allowed beyond the kit's hardening (read-only root, the
// kit's unprivileged uid, all capabilities dropped, no new privileges).
type Relax struct {
	WritableRoot  bool     // the root file system is writable
	ImageUser     bool     // the image's own user, not PodSpec.User
	CapAdd        []string // capabilities added back after dropping all
	NewPrivileges bool     // setuid binaries and file capabilities take effect
}

// PodSpec is one run's containers around a shared volume. The first container owns the
// network namespace (loopback only); the others join it, so they talk over 127.0.0.1
// and nothing is reachable from outside. The conductor's exit ends the run.
type PodSpec struct {
	RunID      string
	Containers []ContainerSpec
	Conductor  string // role of the container that conducts the run
	MountPath  string // where the shared volume is mounted in every container
	ResultPath string // file the conductor leaves behind, inside MountPath
	User       string // uid:gid the containers run as
	PidsLimit  int64
	// NoFile and NProc are every container's RLIMIT_NOFILE and RLIMIT_NPROC (soft and
	// hard); 0 means contract.DefaultNoFile and contract.DefaultNProc. The engine sets
	// them explicitly, never leaving them to its defaults.
	NoFile, NProc int64
	// Volume names an existing named volume to mount at MountPath instead of a fresh
	// one of the run's (a user's other disk); the engine neither creates nor removes it.
	Volume string
	// CollectLogs are the roles whose stdout the engine reads back through its logging
	// driver once the conductor has ended: each is stopped first, so that its driver
	// has delivered every line, and its stdout is kept in PodResult.Logs.
	CollectLogs []string
	// MeasureUsage are the roles whose CPU and memory the engine reads from their
	// cgroups once the conductor has ended (a program that reports none itself, such as
	// a syslog receiver), kept in PodResult.Usage.
	MeasureUsage []string
	// StopAfter is how long after its containers have started an engine stops a pod
	// still running (WithGrace of the most the plan lets the conductor run), and the run
	// fails (Overran): a program stuck past its own cap, or an engine that never reports
	// an exit, costs one run, never the whole matrix. 0: no limit.
	StopAfter time.Duration
}

// OverrunGrace is how long past the most its plan allows a pod may run before the
// engine stops it: the conductor's writing of its result, on a busy or emulated host.
const OverrunGrace = 2 * time.Minute

// WithGrace is PodSpec.StopAfter for a conductor the plan lets run for planned.
func WithGrace(planned time.Duration) time.Duration { return planned + OverrunGrace }

// Overran is the failure of a pod stopped for running past its limit, with the last
// line its conductor printed (what it was waiting for).
func Overran(spec PodSpec, lastLine string) string {
	return fmt.Sprintf("stopped by the kit: the %s container still ran %v after its start, past what the plan allows%s",
		spec.Conductor, spec.StopAfter, LastLine(lastLine))
}

// PodResult is what a pod left behind.
type PodResult struct {
	Result []byte // the conductor's result file, nil if it left none
	Exits  []contract.Exit
	// Logs are the stdout of each role of PodSpec.CollectLogs, as the engine's logging
	// driver gave it back; a role missing here could not be read (Failure says why).
	Logs map[string][]byte
	// Usage is what each role of PodSpec.MeasureUsage used, as the engine read it; a
	// role missing here could not be read (Failure says why).
	Usage map[string]contract.Usage
	// Failure names what went wrong on the engine's side ("" when nothing did).
	Failure string
	// Records are the engine's own account of the pod, one row a container (pods.csv):
	// a cluster's Pod UID, QoS class, admitted limits, times and exits. An engine that
	// keeps none (Docker, Podman) gives none.
	Records []bundle.PodRow
}

// ReadLogs keeps each role's stdout as read reads it back, and says in Failure which
// could not be read: every engine's last step of a pod.
func (r *PodResult) ReadLogs(roles []string, read func(role string) ([]byte, error)) {
	for _, role := range roles {
		logs, err := read(role)
		if err != nil {
			r.Failure = JoinFailures(r.Failure, fmt.Sprintf("reading the %s container's stdout back: %v", role, err))
			continue
		}
		if r.Logs == nil {
			r.Logs = map[string][]byte{}
		}
		r.Logs[role] = logs
	}
}

// LimitedBuffer holds what an engine reads back of a pod (a result, a console) and
// refuses to grow past Limit, so that a runaway container cannot fill the host's memory.
type LimitedBuffer struct {
	bytes.Buffer
	Limit int
}

func (b *LimitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.Limit {
		return 0, fmt.Errorf("more than %d bytes", b.Limit)
	}
	return b.Buffer.Write(p)
}

// Pods is what runs need of an engine: the real one in kit/host/engine, a fake in
// tests of the runner's failure logic.
type Pods interface {
	RunPod(ctx context.Context, spec PodSpec, progress io.Writer) (PodResult, error)
}

// CreateError is the engine's refusal to create a pod's container: what it refused
// (a logging driver's options, say) is the container's spec, not the run.
type CreateError struct {
	Role string
	Err  error
}

func (e CreateError) Error() string { return fmt.Sprintf("creating %s container: %v", e.Role, e.Err) }
func (e CreateError) Unwrap() error { return e.Err }

// UsageError is bad input (a flag, a bundle to resume): the command says it in one line
// and exits with status 2, nothing started.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }
