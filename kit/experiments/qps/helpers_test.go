package qps

import (
	"context"
	"io"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// Cond is a condition, api and config.
type Cond = tabular.Cell

// testPlan is a plan of p as reproduce makes it (Experiment.Plan), p's rounds at least 1.
type testPlan struct{ experiment.Plan }

func NewPlan(p Params) testPlan {
	p.Rounds = max(p.Rounds, 1)
	pl, err := Experiment.Plan(&p, p.Rounds)
	if err != nil {
		panic(err)
	}
	return testPlan{pl}
}

// qpsView is a plan's bundle with its manifest as qps's.
type qpsView struct {
	*Bundle
	M *Manifest
}

func (p testPlan) QPS() qpsView {
	b := p.Bundle().(*Bundle)
	return qpsView{b, b.M.(*Manifest)}
}

func (p testPlan) Prepare(ctx context.Context, pods experiment.Pods, images map[string]string, d time.Duration, out io.Writer) error {
	return p.Plan.(experiment.Preparer).Prepare(ctx, pods, images, d, out)
}

// record is a run's row as a bundle adds it, derived, and its series.
func record(run experiment.Run, p Params) (RunRow, []SeriesRow) {
	r := Record(&p, run)
	var s []SeriesRow
	for i, n := range loops(run).Seconds() {
		s = append(s, SeriesRow{RunID: run.ID, Second: i, Requests: n})
	}
	return DeriveRun(r, s, p.NonBlocking), s
}
