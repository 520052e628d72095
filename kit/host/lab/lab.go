// Package lab performs an experiment's plan on an engine: it checks the platform and
// the disk, builds the plan's images, fills what every manifest says of the kit, the
// engine and the images, and runs the matrix into a bundle folder saved after every
// run. The same code serves one engine or several: Several performs one matrix on each
// engine and compares the bundles (cmd/logbench's --engine). It never prints: progress
// goes to the writer it is given, and bad input is an experiment.UsageError.
package lab

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/precision"
)

// Engine is what a reproduction needs of an engine: the real one (kit/host/engine), or
// a fake in tests of the orchestration.
type Engine interface {
	experiment.Pods
	Facts(ctx context.Context) (contract.EngineFacts, error)
	VolumeExists(ctx context.Context, name string) (bool, error)
	// ImageID is the ID of the image ref names, for a plan that runs an image the
	// engine already has (a user's own API).
	ImageID(ctx context.Context, ref string) (id string, found bool, err error)
	Close() error
}

// Images finds or builds the images a plan names for a platform, and says which, in
// the order a manifest lists them.
type Images interface {
	Build(ctx context.Context, platform string, names []string, progress io.Writer) (ids map[string]string, imgs []bundle.Image, err error)
}

// Target is a reached engine, the platform its runs use, and where they are reported.
type Target struct {
	Engine Engine
	Facts  contract.EngineFacts
	// Context and Endpoint name the engine as it was chosen, for the manifest.
	Context, Endpoint string
	Platform          string
	// Emulated says the platform is not the engine's own, which CheckPlatform allowed.
	Emulated bool
	Images   Images
	// Out gets progress lines.
	Out io.Writer
}

// CheckPlatform refuses a platform the engine does not run natively unless emulated
// allows it: an emulated run times the emulator, not the host, so it is only done when
// asked for, and its bundle says so everywhere.
func (t *Target) CheckPlatform(emulated bool) error {
	native := t.Platform == t.Facts.Platform
	switch {
	case native && emulated:
		return experiment.Usagef("--emulated: this engine runs %s natively; --emulated is for another platform than the engine's", t.Platform)
	case !native && !emulated:
		return experiment.Usagef("--platform %s: this engine runs %s; an emulated run (qemu) times the emulator, not a %s host: add --emulated to run it anyway, marked as no measurement, or only build with `logbench build --platform`", t.Platform, t.Facts.Platform, t.Platform)
	}
	t.Emulated = !native
	return nil
}

// BuildImages says which engine it is, then finds or builds the images names need.
func (t *Target) BuildImages(ctx context.Context, names []string) (map[string]string, []bundle.Image, error) {
	// A cluster's node does not say its cgroup version (each container reports its own).
	cgroup := "cgroup version not reported"
	if t.Facts.CgroupVersion != "" {
		cgroup = "cgroup v" + t.Facts.CgroupVersion
	}
	fmt.Fprintf(t.Out, "engine %s %s (API %s) on %s (%s, %d CPUs, %s), context %s at %s\n", cmp.Or(t.Facts.Kind, "of an unknown kind"), t.Facts.EngineVersion, t.Facts.APIVersion,
		t.Facts.Host, t.Facts.Platform, t.Facts.CPUs, cgroup, t.Context, t.Endpoint)
	if t.Emulated {
		fmt.Fprintf(t.Out, "EMULATED: %s images on a %s engine; every figure times the emulator and is not a measurement of %s\n", t.Platform, t.Facts.Platform, t.Platform)
	}
	return t.Images.Build(ctx, t.Platform, names, t.Out)
}

// Options say what a session writes and where.
type Options struct {
	// Command is the command that made the bundle ("reproduce", "run").
	Command string
	// Dir is the bundle's folder: a new one, or the bundle being resumed.
	Dir      string
	Resuming bool
	// KitVersion and KitCommit name the kit that built the images.
	KitVersion, KitCommit string
	// SpeedProbe times the host's speed before and after every run (probes.csv).
	SpeedProbe bool
	// Precision, for a new bundle, has rounds added one at a time after the plan's
	// until every headline figure is known to its target (reproduce --precision; see
	// Session.Run); nil runs the plan's rounds. A resumed bundle's is its manifest's.
	Precision *bundle.Precision
	// Offline verifies the bundle and gives its figures, to judge the precision after
	// each round; needed with a precision.
	Offline experiment.Offline
}

// Session is a plan ready to run on a target: its images built, its bundle's manifest
// filled, its missing runs known.
type Session struct {
	Target *Target
	Plan   experiment.Plan
	Matrix *experiment.Matrix
	Runs   []experiment.PlannedRun
	// Images are every image built, by name; ImageBuild how long that took.
	Images     map[string]string
	ImageBuild time.Duration
	// OnRound, with a precision, is told where the rule stands after each round.
	OnRound func(bundle.Precision)
	// OnGrow, for a plan that grows (experiment.Grower), is told the conditions added
	// after each judgement.
	OnGrow   func(added []experiment.Condition)
	resuming bool
	// precision is the bundle's record of reproduce --precision (nil without one), and
	// offline the experiment that judges it.
	precision *bundle.Precision
	offline   experiment.Offline
}

// Prepare readies p on t: the plan is told the engine (it refuses what the engine
// cannot do), a resumed bundle must have run on the same platform, the disk must hold
// the bundle, and the images are built; only then is anything created on the engine.
func Prepare(ctx context.Context, t *Target, p experiment.Plan, o Options) (*Session, error) {
	started := time.Now()
	env := experiment.Env{Engine: t.Facts, Platform: t.Platform,
		VolumeExists: func(name string) (bool, error) { return t.Engine.VolumeExists(ctx, name) },
		Image:        func(ref string) (string, bool, error) { return t.Engine.ImageID(ctx, ref) }}
	if err := p.Target(env); err != nil {
		return nil, err
	}
	b := p.Bundle()
	if !o.Resuming && o.Precision != nil {
		rec := *o.Precision
		b.Common().Precision = &rec
	}
	rec := b.Common().Precision
	if rec != nil && o.Offline == nil {
		return nil, fmt.Errorf("rounds until a precision need the experiment's figures to judge it")
	}
	if o.Resuming {
		if c := b.Common(); c.Emulated != t.Emulated || (c.Platform != "" && c.Platform != t.Platform) {
			return nil, experiment.Usagef("cannot resume %s: its runs are %s%s, this engine would run %s%s", o.Dir, c.Platform, emulatedWord(c.Emulated), t.Platform, emulatedWord(t.Emulated))
		}
	}
	all := experiment.Rotation(b)(p.Conditions(), p.Rounds())
	runs := experiment.Missing(all, b)
	most := len(runs) // the disk must hold every run that may be made
	if rec != nil {
		most += len(p.Conditions()) * (rec.MaxRounds - p.Rounds())
	}
	if g, ok := p.(experiment.Grower); ok {
		most = max(most, g.MostRuns())
		if rg, own := g.(experiment.RoundGrower); own && rec != nil {
			most = g.MostRuns() / max(1, rg.OwnRounds()) * rec.MaxRounds
		}
	}
	if err := CheckDisk(o.Dir, most); err != nil {
		return nil, err
	}
	buildStart := time.Now()
	ids, imgs, err := t.BuildImages(ctx, p.Images())
	if err != nil {
		return nil, err
	}
	imageBuild := time.Since(buildStart)
	common := b.Common()
	if !o.Resuming {
		fillCommon(t, o, common, started, imgs)
	} else if err := sameImages(common.Images, imgs); err != nil {
		return nil, err
	}
	common.Interrupted = false // this invocation has not been
	common.RunsPlanned = len(all)
	m := &experiment.Matrix{Pods: t.Engine, Plan: p, Images: ids, Dir: o.Dir, Save: bundle.WriteFiles, Progress: io.Discard}
	if o.SpeedProbe {
		m.ProbeImage = ids["api"]
	}
	if o.Resuming {
		if m.Probes, err = bundle.ReadProbes(o.Dir); err != nil {
			return nil, err
		}
		if m.Records, err = bundle.ReadPods(o.Dir); err != nil {
			return nil, err
		}
	}
	return &Session{
		Target:     t,
		Plan:       p,
		Matrix:     m,
		Runs:       runs,
		Images:     ids,
		ImageBuild: imageBuild,
		resuming:   o.Resuming,
		precision:  rec,
		offline:    o.Offline,
	}, nil
}

// Run prepares the engine for the plan if it asks (a Preparer: fifo-stall calibrates
// its instrument; not again when resuming) and performs the missing runs. With a
// precision, the bundle is then judged after each round, and a round added while the
// rule is not reached and rounds are left (Runs grows with it). An interrupt leaves a
// valid partial bundle and returns an error that says so.
func (s *Session) Run(ctx context.Context) error {
	if pre, ok := s.Plan.(experiment.Preparer); ok && !s.resuming {
		if err := pre.Prepare(ctx, s.Target.Engine, s.Images, s.ImageBuild, s.Target.Out); err != nil {
			if ctx.Err() != nil {
				return Interrupted{"interrupted while preparing; nothing was measured"}
			}
			return err
		}
	}
	var err error
	grower, grows := s.Plan.(experiment.Grower)
	switch {
	case s.precision != nil:
		err = s.rounds(ctx)
	case grows:
		err = s.grow(ctx, grower, s.Runs, 0)
	default:
		err = s.Matrix.Run(ctx, s.Runs)
	}
	if ctx.Err() != nil {
		c := s.Plan.Bundle().Common()
		return Interrupted{fmt.Sprintf("interrupted: %d of %d runs kept in %s; continue with `logbench reproduce --resume %s`",
			c.RunsCompleted, c.RunsPlanned, s.Matrix.Dir, s.Matrix.Dir)}
	}
	return err
}

// Outcome is how a reproduction went.
type Outcome struct {
	Runs   int // runs performed (a redone one counts once)
	Failed int // of them, runs that are not data
}

// Reproduce runs the session, telling onStart of each run as it starts and onRun of
// each once it is saved (either may be nil), then writes the experiment's summary of
// the bundle to the target's writer if any run was kept.
func (s *Session) Reproduce(ctx context.Context, onStart func(i int, pr experiment.PlannedRun), onRun func(done int, line string, verified bool)) (Outcome, error) {
	var o Outcome
	s.Matrix.OnStart = onStart
	s.Matrix.OnRun = func(done int, line string, verified bool) {
		if !verified {
			o.Failed++
		}
		if onRun != nil {
			onRun(done, line, verified)
		}
	}
	err := s.Run(ctx)
	o.Runs = len(s.Runs)
	b := s.Plan.Bundle()
	if b.Common().RunsCompleted > 0 {
		fmt.Fprintln(s.Target.Out)
		if serr := b.Summary(s.Target.Out); serr != nil && err == nil {
			err = serr
		}
		if b.Common().Emulated {
			fmt.Fprintf(s.Target.Out, "EMULATED: these figures time the emulator, not a %s host; they are not a measurement\n", b.Common().Platform)
		}
	}
	return o, err
}

// runFrom performs todo, its runs numbered from offset on in the progress callbacks:
// the runs a plan added after its first ones go on counting where those ended.
func (s *Session) runFrom(ctx context.Context, todo []experiment.PlannedRun, offset int) error {
	onStart, onRun := s.Matrix.OnStart, s.Matrix.OnRun
	defer func() { s.Matrix.OnStart, s.Matrix.OnRun = onStart, onRun }()
	s.Matrix.OnStart = func(i int, pr experiment.PlannedRun) {
		if onStart != nil {
			onStart(offset+i, pr)
		}
	}
	s.Matrix.OnRun = func(done int, line string, verified bool) {
		if onRun != nil {
			onRun(offset+done, line, verified)
		}
	}
	return s.Matrix.Run(ctx, todo)
}

// rounds performs the missing runs, then judges the bundle as verify reads it and adds
// a round, until the precision is reached or the rounds run out. The record is saved
// with each judgement; until the rule stops, it says "interrupted", as a bundle left
// by a crash between two saves must. A plan that grows, whose rounds are its own (a
// capacity search's searches), grows to its end before each judgement and adds its own
// round.
func (s *Session) rounds(ctx context.Context) error {
	rec := s.precision
	perform := func(todo []experiment.PlannedRun, offset int) error { return s.runFrom(ctx, todo, offset) }
	counted := s.Plan.Rounds
	addRound := func() ([]experiment.PlannedRun, error) {
		s.Plan.SetRounds(rec.Rounds + 1)
		return experiment.RotateOpen(s.Plan.Conditions(), rec.Rounds+1), nil
	}
	if g, grows := s.Plan.(experiment.Grower); grows {
		rg, own := g.(experiment.RoundGrower)
		if !own {
			return fmt.Errorf("rounds until a precision: this plan grows by its results, not by rounds")
		}
		perform = func(todo []experiment.PlannedRun, offset int) error { return s.grow(ctx, g, todo, offset) }
		counted = rg.OwnRounds
		addRound = func() ([]experiment.PlannedRun, error) {
			added, err := rg.AddRound()
			if err == nil && s.OnGrow != nil {
				s.OnGrow(added)
			}
			return experiment.Rotate(s.Plan.Conditions(), s.Plan.Rounds()), err
		}
	}
	todo, offset := s.Runs, 0
	for {
		if err := perform(todo, offset); err != nil {
			return err
		}
		widest, err := s.judge()
		if err != nil {
			return err
		}
		rec.Rounds, rec.Widest = counted(), widest
		switch {
		case precision.Met(widest, rec.Target):
			rec.Stopped = bundle.Reached
		case rec.Rounds >= rec.MaxRounds:
			rec.Stopped = bundle.MaxRounds
		default:
			rec.Stopped = bundle.Interrupted
			all, err := addRound()
			if err != nil {
				return err
			}
			s.Plan.Bundle().Common().RunsPlanned = len(all)
			todo, offset = experiment.Missing(all, s.Plan.Bundle()), len(s.Runs)
			s.Runs = append(s.Runs, todo...)
		}
		if err := s.Matrix.SaveBundle(); err != nil {
			return err
		}
		if s.OnRound != nil {
			s.OnRound(*rec)
		}
		if rec.Stopped != bundle.Interrupted {
			return nil
		}
	}
}

// grow performs todo (the runs from offset on), then has the plan judge them and add
// the conditions that follow, until it adds none. Every run stays in the bundle, and
// the manifest's planned runs grow with the plan, saved with each growth, so that a
// bundle left by a crash between two saves still holds its plan to its runs.
func (s *Session) grow(ctx context.Context, g experiment.Grower, todo []experiment.PlannedRun, offset int) error {
	for {
		if err := s.runFrom(ctx, todo, offset); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		added, err := g.Grow()
		if err != nil {
			return err
		}
		if len(added) == 0 {
			return s.Matrix.SaveBundle()
		}
		all := experiment.Rotate(s.Plan.Conditions(), s.Plan.Rounds())
		s.Plan.Bundle().Common().RunsPlanned = len(all)
		todo, offset = experiment.Missing(all, s.Plan.Bundle()), len(s.Runs)
		s.Runs = append(s.Runs, todo...)
		if err := s.Matrix.SaveBundle(); err != nil {
			return err
		}
		if s.OnGrow != nil {
			s.OnGrow(added)
		}
	}
}

// judge reads the bundle back as verify does and gives its widest headline figure.
func (s *Session) judge() (*bundle.Widest, error) {
	files, err := bundle.ReadFolder(s.Matrix.Dir)
	if err != nil {
		return nil, err
	}
	res := s.offline.Verify(files)
	if !res.OK() {
		return nil, fmt.Errorf("judging the precision: %s does not verify (%d problems, the first: %s)", s.Matrix.Dir, len(res.Problems), res.Problems[0])
	}
	rows, err := s.offline.Figures(res)
	if err != nil {
		return nil, fmt.Errorf("judging the precision: %w", err)
	}
	return precision.Widest(rows), nil
}

// Interrupted ends a session stopped by a signal: the bundle holds every run so far.
type Interrupted struct{ Msg string }

func (e Interrupted) Error() string { return e.Msg }

// fillCommon fills what every bundle's manifest says of the kit, the engine and the
// images, for a new bundle.
func fillCommon(t *Target, o Options, m *bundle.Common, started time.Time, imgs []bundle.Image) {
	m.SchemaVersion = bundle.SchemaVersion
	m.KitVersion = o.KitVersion
	m.KitCommit = o.KitCommit
	m.Command = o.Command
	m.CreatedUTC = started.UTC()
	m.Engine = t.Facts
	m.KitHost = bundle.KitHost{OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version()}
	m.Images = imgs
	m.EngineContext, m.EngineEndpoint = t.Context, t.Endpoint
	m.Platform, m.Emulated = t.Platform, t.Emulated
}

// sameImages refuses to resume with binaries other than the bundle's.
func sameImages(have, now []bundle.Image) error {
	digest := map[string]string{}
	for _, img := range have {
		digest[img.Role] = img.BinarySHA256
	}
	for _, img := range now {
		if d, ok := digest[img.Role]; ok && d != img.BinarySHA256 {
			return fmt.Errorf("cannot resume: the %s binary differs from the bundle's (%.12s now, %.12s then); resume from the same source, or start a new bundle", img.Role, img.BinarySHA256, d)
		}
	}
	return nil
}

func emulatedWord(emulated bool) string {
	if emulated {
		return " emulated"
	}
	return ""
}
