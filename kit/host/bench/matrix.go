package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// PlannedRun is one run of a matrix.
type PlannedRun struct {
	Condition
	Round    int // 1-based
	Position int // 1-based place in its round
}

// Plan orders rounds x conditions, rotating the starting position each round so that
// no condition always runs first (or last) in a round.
func Plan(conds []Condition, rounds int) []PlannedRun {
	var runs []PlannedRun
	n := len(conds)
	for round := range rounds {
		shift := 0
		if rounds > 0 {
			shift = round * n / rounds
		}
		for pos := range n {
			runs = append(runs, PlannedRun{Condition: conds[(pos+shift)%n], Round: round + 1, Position: pos + 1})
		}
	}
	return runs
}

// Matrix performs planned runs one after another (the manifest's runs_planned says how
// many the whole matrix has) and saves the bundle after each, so
// an interrupted matrix leaves every completed run on disk, checksummed.
type Matrix struct {
	Runner *Runner
	Bundle *bundle.Bundle
	Dir    string
	// OnStart is told of each run as it starts, OnRun once it is saved; either may be nil.
	OnStart func(i int, pr PlannedRun)
	OnRun   func(done int, rows bundle.Rows)
}

// Run performs runs and returns the first error that stops the matrix (an interrupt,
// a broken engine, a bundle that cannot be written). A failed run does not stop it.
func (m *Matrix) Run(ctx context.Context, runs []PlannedRun) error {
	if err := m.save(); err != nil {
		return err
	}
	for i, pr := range runs {
		if err := ctx.Err(); err != nil {
			return m.interrupted(err)
		}
		if m.OnStart != nil {
			m.OnStart(i, pr)
		}
		rec, runErr := m.Runner.Run(ctx, pr.Condition, newRunID(pr))
		rec.Round, rec.Position = pr.Round, pr.Position
		if runErr != nil && rec.Result.LoadStart == 0 {
			// Nothing was measured: nothing to keep.
			if ctx.Err() != nil {
				return m.interrupted(runErr)
			}
			return runErr
		}
		rows := bundle.Derive(rec)
		m.Bundle.Runs = append(m.Bundle.Runs, rows)
		mf := &m.Bundle.Manifest
		mf.RunsCompleted++
		if rows.Run.Verified {
			mf.RunsVerified++
		}
		if err := m.save(); err != nil {
			return err
		}
		if m.OnRun != nil {
			m.OnRun(i+1, rows)
		}
		if runErr != nil {
			return runErr
		}
	}
	return nil
}

// interrupted records in the bundle that the matrix was stopped before its end.
func (m *Matrix) interrupted(cause error) error {
	m.Bundle.Manifest.Interrupted = true
	return errors.Join(cause, m.save())
}

func (m *Matrix) save() error {
	mf := &m.Bundle.Manifest
	mf.FinishedUTC = time.Now().UTC()
	mf.Complete = mf.RunsCompleted == mf.RunsPlanned
	if err := m.Bundle.Save(m.Dir); err != nil {
		return fmt.Errorf("saving bundle %s: %w", m.Dir, err)
	}
	return nil
}

// newRunID names a run uniquely and readably; it also names its containers and volume.
func newRunID(pr PlannedRun) string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s-%s-%s-r%d-%s", pr.API, pr.Mode, pr.Reader, pr.Round, hex.EncodeToString(b[:]))
}
