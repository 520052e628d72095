package linecost

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/logbench/logbench/kit/experiment"
)

// CompareRow is one condition of one bundle in a comparison.
type CompareRow struct {
	Language string  `json:"language"`
	Way      string  `json:"way"`
	Bundle   string  `json:"bundle"` // the label, or "published"
	Headline string  `json:"headline"`
	Runs     string  `json:"runs"` // verified/all
	Ns       float64 `json:"ns_per_line"`
	Low      float64 `json:"ns_per_line_ci_low"`
	High     float64 `json:"ns_per_line_ci_high"`
	Ratio    float64 `json:"ratio_to_cheapest"`
	// Throttled is trials throttled / trials.
	Throttled string `json:"throttled_trials"`
}

// Compare sets verified bundles side by side, condition by condition, each with its
// own bootstrap interval (drawn when the bundle was saved, seeded by condition), and the
// published figure with opt.Published. Bundles measured under other limits or rates
// are said to differ on warn.
func (Experiment) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	type keyed struct {
		label string
		b     *Bundle
	}
	var bs []keyed
	for _, s := range sources {
		b, err := bundleOf(s.Result)
		if err != nil {
			return err
		}
		bs = append(bs, keyed{s.Label, b})
	}
	if len(bs) == 0 {
		return fmt.Errorf("nothing to compare")
	}
	first := bs[0].b.Manifest.Parameters
	for _, k := range bs[1:] {
		p := k.b.Manifest.Parameters
		if p.CPUs != first.CPUs || p.MemoryBytes != first.MemoryBytes {
			fmt.Fprintf(warn, "%s ran under %g CPU, %s; %s under %g CPU, %s: the CPU-bound ways' wall times are not alike\n",
				k.label, p.CPUs, bytesSize(p.MemoryBytes), bs[0].label, first.CPUs, bytesSize(first.MemoryBytes))
		}
		if k.b.Manifest.Engine.Host != bs[0].b.Manifest.Engine.Host {
			fmt.Fprintf(warn, "%s ran on %s, %s on %s\n", k.label, k.b.Manifest.Engine.Host, bs[0].label, bs[0].b.Manifest.Engine.Host)
		}
	}
	// Conditions in the first bundle's order, then any the others add.
	var order [][2]string
	for _, k := range bs {
		for _, c := range k.b.Conditions {
			key := [2]string{c.Language, c.Way}
			if !containsKey(order, key) {
				order = append(order, key)
			}
		}
	}
	var rows []CompareRow
	for _, key := range order {
		for _, k := range bs {
			for _, c := range k.b.Conditions {
				if c.Language == key[0] && c.Way == key[1] {
					rows = append(rows, CompareRow{Language: c.Language, Way: c.Way, Bundle: k.label, Headline: c.Headline,
						Runs: fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs), Ns: c.NsPerLine, Low: c.NsPerLineLow, High: c.NsPerLineHigh,
						Ratio: c.RatioToCheapest, Throttled: fmt.Sprintf("%d/%d", c.ThrottledTrials, c.Trials)})
				}
			}
		}
		if opt.Published {
			pub, err := LoadPublished()
			if err != nil {
				return err
			}
			if f, ok := pub.PerLine(key[1]); ok {
				rows = append(rows, CompareRow{Language: key[0], Way: key[1], Bundle: "published", Headline: "wall", Ns: f.Ns, Low: nan, High: nan, Ratio: nan})
			}
		}
	}
	switch opt.Format {
	case "", "text", "markdown":
		md := opt.Format == "markdown"
		if md {
			fmt.Fprintln(out, "| language | way | bundle | runs | headline | per line | 95% interval | x cheapest | throttled trials |")
			fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|")
		} else {
			fmt.Fprintf(out, "%-7s %-15s %-20s %-6s %-4s %11s %25s %9s %s\n", "lang", "way", "bundle", "runs", "head", "per line", "95% interval", "x cheap", "throttled")
		}
		for _, r := range rows {
			interval := "-"
			if !math.IsNaN(r.Low) {
				interval = "[" + Ns(r.Low) + ", " + Ns(r.High) + "]"
			}
			if md {
				fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Language, r.Way, r.Bundle, r.Runs, r.Headline, Ns(r.Ns), interval, ratio(r.Ratio), r.Throttled)
			} else {
				fmt.Fprintf(out, "%-7s %-15s %-20s %-6s %-4s %11s %25s %9s %s\n", r.Language, r.Way, r.Bundle, r.Runs, r.Headline, Ns(r.Ns), interval, ratio(r.Ratio), r.Throttled)
			}
		}
		return nil
	case "csv":
		w := csv.NewWriter(out)
		w.Write([]string{"language", "way", "bundle", "runs", "headline", "ns_per_line", "ns_per_line_ci_low", "ns_per_line_ci_high", "ratio_to_cheapest", "throttled_trials"})
		for _, r := range rows {
			w.Write([]string{r.Language, r.Way, r.Bundle, r.Runs, r.Headline, num(r.Ns), num(r.Low), num(r.High), num(r.Ratio), r.Throttled})
		}
		w.Flush()
		return w.Error()
	case "json":
		for i := range rows {
			for _, f := range []*float64{&rows[i].Ns, &rows[i].Low, &rows[i].High, &rows[i].Ratio} {
				if math.IsNaN(*f) || math.IsInf(*f, 0) {
					*f = -1 // JSON has no NaN; -1 is no figure
				}
			}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	return experiment.Usagef("--format %q: line-cost compares as text, markdown, csv or json", opt.Format)
}

func num(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func containsKey(list [][2]string, k [2]string) bool {
	for _, v := range list {
		if v == k {
			return true
		}
	}
	return false
}
