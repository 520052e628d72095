package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/precision"
	"github.com/logbench/logbench/kit/offline/verify"
)

// DefaultMaxRounds is reproduce --max-reps: the most rounds --precision adds up to.
const DefaultMaxRounds = 20

// NewPrecision checks reproduce's --precision, --reps and --max-reps into the record a
// new bundle starts with: target is a percentage ("2%") or a fraction ("0.02") of a
// figure's value, above 0 and below 100%; minRounds (--reps) at least figure.MinRuns,
// as one run gives no interval; maxRounds from minRounds to MaxRounds.
func NewPrecision(target string, minRounds, maxRounds int) (*bundle.Precision, error) {
	f, err := parseTarget(target)
	if err != nil {
		return nil, err
	}
	if minRounds < figure.MinRuns {
		return nil, Usagef("--reps %d: --precision needs at least %d rounds, as one run gives no interval", minRounds, figure.MinRuns)
	}
	if maxRounds < minRounds || maxRounds > MaxRounds {
		return nil, Usagef("--max-reps %d: want %d (--reps) to %d", maxRounds, minRounds, MaxRounds)
	}
	return &bundle.Precision{Target: f, MinRounds: minRounds, MaxRounds: maxRounds, Stopped: bundle.Interrupted}, nil
}

func parseTarget(s string) (float64, error) {
	bad := Usagef("--precision %s: want the widest 95%% interval allowed, as a half-width above 0%% and below 100%% of the figure, such as 2%%", s)
	t := strings.TrimSpace(s)
	pct, isPct := strings.CutSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, bad
	}
	if isPct {
		f /= 100
	}
	if !(f > 0 && f < 1) {
		return 0, bad
	}
	return f, nil
}

// RotateOpen orders rounds x conditions for a matrix whose number of rounds is not
// known in advance (reproduce --precision): round r starts at the position
// n x vdc(r-1), vdc being the van der Corput sequence (0, 1/2, 1/4, 3/4, 1/8...), so
// that the rounds done so far always start spread over the matrix, whenever they stop,
// and adding a round leaves the earlier ones as they were.
func RotateOpen(conds []Condition, rounds int) []PlannedRun {
	var runs []PlannedRun
	n := len(conds)
	for round := range rounds {
		shift := int(float64(n) * vanDerCorput(round))
		for pos := range n {
			runs = append(runs, PlannedRun{Condition: conds[(pos+shift)%n], Round: round + 1, Position: pos + 1})
		}
	}
	return runs
}

// vanDerCorput is i's binary digits mirrored behind the point: 1 is 0.1b, 6 is 0.011b.
func vanDerCorput(i int) float64 {
	v, scale := 0.0, 0.5
	for ; i > 0; i >>= 1 {
		if i&1 == 1 {
			v += scale
		}
		scale /= 2
	}
	return v
}

// Rotation is how a plan orders its runs: Rotate, or RotateOpen for a bundle whose
// rounds grow until a precision is reached.
func Rotation(b Bundle) func([]Condition, int) []PlannedRun {
	if b.Common().Precision != nil {
		return RotateOpen
	}
	return Rotate
}

// CheckPrecision holds a verified bundle's precision record (reproduce --precision) to
// its rows, and says it in the summary: rounds are the rounds the manifest's
// parameters plan, figures the experiment's Figures. A bundle without the record is
// left as it is. The rule's figures are recomputed from the rows: a bundle that says
// it reached its target must have, one that ran out of rounds must have run them all
// and still be short of it, and either must hold every run of its rounds. What verify
// cannot know is whether an earlier round had already reached the target: the rows
// give the figures of the bundle, not of each round's end.
func CheckPrecision(res *verify.Result, rounds func() int, figures func(*verify.Result) ([]compare.Row, error)) {
	if !res.OK() || res.Common == nil || res.Common.Precision == nil {
		return
	}
	p, c := res.Common.Precision, res.Common
	problem := func(column, have, want, msg string) {
		res.Problem(verify.Problem{File: bundle.ManifestFile, Column: "precision." + column, Have: have, Want: want, Msg: msg})
	}
	itoa := strconv.Itoa
	switch {
	case !(p.Target > 0 && p.Target < 1):
		problem("target", fmt.Sprint(p.Target), "above 0 and below 1", "the rule of --precision")
	case p.MinRounds < figure.MinRuns || p.MinRounds > p.MaxRounds || p.MaxRounds > MaxRounds:
		problem("min_rounds", itoa(p.MinRounds)+" to "+itoa(p.MaxRounds), fmt.Sprintf("%d <= min_rounds <= max_rounds <= %d", figure.MinRuns, MaxRounds), "the rules of --reps and --max-reps")
	case p.Rounds < 0 || p.Rounds > p.MaxRounds || p.Rounds > 0 && p.Rounds < p.MinRounds:
		problem("rounds", itoa(p.Rounds), fmt.Sprintf("0, or %d to %d", p.MinRounds, p.MaxRounds), "rounds are judged from min_rounds on, up to max_rounds")
	case p.Stopped != bundle.Reached && p.Stopped != bundle.MaxRounds && p.Stopped != bundle.Interrupted:
		problem("stopped", strconv.Quote(verify.Short(p.Stopped)), `"reached", "max-rounds" or "interrupted"`, "")
	}
	if !res.OK() {
		return
	}
	planned := rounds()
	if p.Stopped == bundle.Interrupted {
		// The rounds go on after the last judgement: the next one is planned.
		if want := max(p.MinRounds, p.Rounds+1); planned != want {
			problem("rounds", itoa(p.Rounds), "", fmt.Sprintf("the parameters plan %d rounds; rounds still going after %d judged plan %d", planned, p.Rounds, want))
		}
		switch {
		case p.Rounds == 0 && p.Widest != nil:
			problem("widest", precision.WidestText(p.Widest), "none", "no round has been judged")
		case p.Rounds > 0 && precision.Met(p.Widest, p.Target):
			problem("stopped", bundle.Interrupted, bundle.Reached, "the widest figure recorded is within the target: the rounds would have stopped")
		}
		res.Described = joinDescribed(res.Described, precision.Summary(p))
		return
	}
	if planned != p.Rounds {
		problem("rounds", itoa(p.Rounds), itoa(planned), "the rounds the manifest's parameters plan")
	}
	if !c.Complete || c.Interrupted {
		problem("stopped", strconv.Quote(p.Stopped), `"interrupted"`, "the bundle does not hold every run of its rounds")
	}
	rows, err := figures(res)
	if err != nil {
		problem("widest", "", "", "the bundle's figures: "+err.Error())
		return
	}
	w := precision.Widest(rows)
	if !precision.Same(p.Widest, w) {
		problem("widest", precision.WidestText(p.Widest), precision.WidestText(w), "recomputed from the rows")
	}
	switch met := precision.Met(w, p.Target); {
	case p.Stopped == bundle.Reached && !met:
		problem("stopped", bundle.Reached, bundle.MaxRounds+" or "+bundle.Interrupted, "the widest figure, recomputed, is "+precision.WidestText(w)+", wider than ±"+precision.Percent(p.Target))
	case p.Stopped == bundle.MaxRounds && met:
		problem("stopped", bundle.MaxRounds, bundle.Reached, "the widest figure, recomputed, is "+precision.WidestText(w)+", within ±"+precision.Percent(p.Target))
	case p.Stopped == bundle.MaxRounds && p.Rounds != p.MaxRounds:
		problem("rounds", itoa(p.Rounds), itoa(p.MaxRounds), "rounds stopped for max-rounds are max_rounds")
	}
	res.Described = joinDescribed(res.Described, precision.Summary(p))
}

func joinDescribed(a, b string) string {
	if a == "" {
		return b
	}
	return a + ", " + b
}
