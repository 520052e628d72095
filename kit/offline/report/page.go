// Package report is what every experiment's report page shares: the plot renderer
// (gonum/plot, inlined as SVG), the page (one HTML template, one style), and the pieces
// every experiment draws alike: a table of the bundles' hosts, a table of their
// parameters read from the manifests' JSON, each bundle's verification, grouped bars
// with centred whiskers, log axes, a colour per bundle and legends beside the data.
// An experiment's own drawings live in its package (kit/experiments/NAME) and give
// this package sections of figures and tables; nothing here knows an experiment.
//
// The page needs no network and no script; html/template escapes every string from a
// bundle.
package report

import (
	"errors"
	"html/template"
	"image/color"
	"io"
	"strings"

	"github.com/logbench/logbench/kit/offline/verify"
)

// Page is one report: one or several bundles of one experiment on the same axes.
type Page struct {
	// Experiment names the experiment; Title the bundles.
	Experiment, Title string
	// Sub is a line under the title: what the experiment measures, the published source.
	Sub string
	// Bundles are each bundle's verification, in the order and colours of the plots.
	Bundles []Status
	// Answer opens the page, before anything else: the experiment's question answered
	// and the one chart that shows it (Open). The verification follows it in one line,
	// its details folded.
	Answer *Answer
	// Sections are the experiment's: figures, tables and warnings, in order.
	Sections []Section
	// Version names the kit that writes the page.
	Version string
}

// Status is one bundle's verification as the page shows it.
type Status struct {
	Label    string
	Colour   template.CSS
	OK       bool
	Summary  string
	Problems []string
	More     int // problems beyond those listed
	Notes    []string
	// Runs, Conditions and Cautions are what the one line of verification says: the
	// bundle's runs and conditions, and how many things weaken its figures although it
	// verifies (verify.Result.Weakened).
	Runs, Conditions, Cautions int
}

// maxProblems bounds the verification problems the page lists per bundle.
const maxProblems = 50

// StatusOf is a bundle's verification, in colour c.
func StatusOf(label string, c color.RGBA, res *verify.Result) Status {
	s := Status{Label: label, Colour: template.CSS(CSS(c)), OK: res.OK(), Summary: res.Summary(),
		Runs: res.Counts.Runs, Conditions: res.Counts.Conditions, Cautions: len(res.Weakened)}
	for i, p := range res.Problems {
		if i == maxProblems {
			s.More = len(res.Problems) - i
			break
		}
		s.Problems = append(s.Problems, p.String())
	}
	for _, n := range res.Notes {
		s.Notes = append(s.Notes, n.String())
	}
	return s
}

// Section is a part of the page under one heading.
type Section struct {
	ID, Title, Caption string
	// Warnings stand out above the figures (NOT CONFIRMED, an unlike setup).
	Warnings []string
	Figures  []Figure
	Tables   []Table
	// Empty is said when there is nothing to draw.
	Empty string
}

// Table is a table of the page. Its first Text columns are words, the rest figures
// (right-aligned). Rows marked in Differs are shaded: the bundles disagree there.
type Table struct {
	Caption string
	Header  []string
	Rows    [][]string
	Text    int
	Differs []bool
}

// Write writes the page.
func Write(w io.Writer, p Page) error {
	if len(p.Bundles) == 0 {
		return errors.New("report: no bundle to draw")
	}
	if p.Title == "" {
		var names []string
		for _, b := range p.Bundles {
			names = append(names, b.Label)
		}
		p.Title = strings.Join(names, ", ")
	}
	line, ok := Verdict(p.Bundles)
	return page.Execute(w, struct {
		Page
		Verdict   string
		VerdictOK bool
		Untrusted string
	}{p, line, ok, Untrusted})
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"num": func(t Table, i int) bool { return i >= t.Text },
	"differs": func(t Table, i int) bool {
		return i < len(t.Differs) && t.Differs[i]
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>logbench report: {{.Experiment}}: {{.Title}}</title>
<style>
  :root { --ok: #0b7a3e; --bad: #b3261e; --ink: #1d1d1f; --muted: #5f6368; --rule: #e3e3e3; }
  * { box-sizing: border-box; }
  body { margin: 0; padding: 24px clamp(12px, 3vw, 32px) 48px; font: 15px/1.45 "Liberation Sans", Arial, Helvetica, sans-serif; color: var(--ink); background: #fff; }
  main { max-width: 1400px; margin: 0 auto; }
  h1 { font-size: 26px; margin: 0 0 4px; overflow-wrap: anywhere; }
  h2 { font-size: 20px; margin: 36px 0 6px; padding-top: 8px; border-top: 1px solid var(--rule); }
  p.sub, p.caption { color: var(--muted); margin: 0 0 12px; }
  .status { padding: 10px 14px; border-radius: 6px; margin: 10px 0; border: 1px solid; border-left-width: 8px; }
  .status.ok { border-color: var(--ok); background: #eef8f1; }
  .status.bad { border-color: var(--bad); background: #fcefee; }
  .status.warn { border-color: var(--bad); background: #fff7e6; }
  .status .who { font-weight: bold; }
  .status strong { font-size: 16px; }
  .status .sum { white-space: pre-line; overflow-wrap: anywhere; font-size: 14px; }
  .status.ok strong { color: var(--ok); }
  .status.bad strong { color: var(--bad); }
  .status ul { margin: 8px 0 0; padding-left: 20px; font: 13px/1.4 "Liberation Mono", Menlo, Consolas, monospace; overflow-wrap: anywhere; }
  .swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; vertical-align: -2px; margin-right: 6px; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(560px, 100%), 1fr)); gap: 16px 28px; }
  .grid > figure { min-width: 0; }
  figure { margin: 0; }
  figure svg { width: 100%; height: auto; display: block; }
  figure svg text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
  .err { color: var(--bad); font-family: monospace; }
  .tables { display: flex; flex-wrap: wrap; gap: 12px 28px; margin-top: 12px; }
  .tables > div { min-width: 0; max-width: 100%; overflow-x: auto; }
  /* A table wider than the window scrolls in its box; a shadow at an edge says there is more. */
  .tables > div { background: linear-gradient(to right, #fff 30%, rgba(255,255,255,0)), linear-gradient(to right, rgba(255,255,255,0), #fff 70%) 100% 0,
    radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.25), rgba(0,0,0,0)), radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.25), rgba(0,0,0,0)) 100% 0;
    background-repeat: no-repeat; background-size: 40px 100%, 40px 100%, 14px 100%, 14px 100%; background-attachment: local, local, scroll, scroll; }
  table { border-collapse: collapse; font-size: 13px; }
  caption { text-align: left; color: var(--muted); padding-bottom: 4px; }
  th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--rule); vertical-align: top; overflow-wrap: break-word; }
  td { min-width: 4em; }
  tr > th:first-child { white-space: nowrap; }
  th { color: var(--muted); font-weight: normal; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tr.differs td, tr.differs th { background: #fff4d6; }
  #answer h2.question { border-top: none; margin-top: 20px; }
  p.answer { font-size: 17px; margin: 0 0 10px; max-width: 60em; }
  figure.headline { max-width: 820px; margin: 8px 0 4px; }
  p.verdict { margin: 14px 0 6px; padding: 8px 12px; border-radius: 6px; border: 1px solid; border-left-width: 8px; overflow-wrap: anywhere; }
  p.verdict.ok { border-color: var(--ok); background: #eef8f1; }
  p.verdict.ok strong { color: var(--ok); }
  p.verdict.bad { border-color: var(--bad); background: #fcefee; }
  p.verdict.bad strong { color: var(--bad); }
  details > summary { cursor: pointer; color: var(--muted); margin: 4px 0 8px; }
  footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
</style>
</head>
<body>
<main>
<h1>logbench report: {{.Experiment}}: {{.Title}}</h1>
{{if .Sub}}<p class="sub">{{.Sub}}</p>{{end}}
{{with .Answer}}<section id="answer">
<h2 class="question">{{.Question}}</h2>
{{range .Sentences}}<p class="answer">{{.}}</p>
{{end}}{{if or .Chart.SVG .Chart.Err}}<figure class="headline">{{if .Chart.Err}}<p class="err">{{.Chart.Title}}: could not be drawn: {{.Chart.Err}}</p>{{else}}{{.Chart.SVG}}{{end}}</figure>{{end}}
</section>{{end}}
<section id="verification">
<p class="verdict {{if .VerdictOK}}ok{{else}}bad{{end}}"><strong>{{if .VerdictOK}}Verified{{else}}Does not verify{{end}}</strong> — {{.Verdict}}</p>
<details{{if not .VerdictOK}} open{{end}}><summary>Verification and trust, bundle by bundle</summary>
<p class="caption">Each bundle in the colour of its marks in every plot: whether every file, checksum and figure recomputes, and how far each condition can be trusted. {{.Untrusted}} marks a figure not to be trusted as it stands (compare marks it the same way).</p>
{{range .Bundles}}<div class="status {{if .OK}}ok{{else}}bad{{end}}" style="border-left-color: {{.Colour}}">
<span class="swatch" style="background: {{.Colour}}"></span><span class="who">{{.Label}}</span>
{{if .OK}}<strong>Verified</strong>{{else}}<strong>Does not verify</strong>{{end}} — <span class="sum">{{.Summary}}</span>
{{if .Problems}}<ul>{{range .Problems}}<li>{{.}}</li>{{end}}{{if .More}}<li>… and {{.More}} more (logbench verify lists them all)</li>{{end}}</ul>{{end}}
{{if .Notes}}<ul>{{range .Notes}}<li>note: {{.}}</li>{{end}}</ul>{{end}}
</div>
{{end}}</details>
</section>
{{range .Sections}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{if .Caption}}<p class="caption">{{.Caption}}</p>{{end}}
{{range .Warnings}}<div class="status warn">{{.}}</div>
{{end}}{{if .Empty}}<p>{{.Empty}}</p>{{end}}
{{if .Figures}}<div class="grid">{{range .Figures}}
<figure>{{if .Err}}<p class="err">{{.Title}}: could not be drawn: {{.Err}}</p>{{else}}{{.SVG}}{{end}}</figure>{{end}}
</div>{{end}}
{{if .Tables}}<div class="tables">{{range $t := .Tables}}<div><table>
{{if $t.Caption}}<caption>{{$t.Caption}}</caption>{{end}}
<tr>{{range $t.Header}}<th>{{.}}</th>{{end}}</tr>
{{range $r, $row := $t.Rows}}<tr{{if differs $t $r}} class="differs"{{end}}>{{range $i, $c := $row}}{{if num $t $i}}<td class="n">{{$c}}</td>{{else if eq $i 0}}<th>{{$c}}</th>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table></div>{{end}}</div>{{end}}
</section>
{{end}}
<footer>Written by logbench {{.Version}} from {{.Title}}. Self-contained: no script, nothing fetched.</footer>
</main>
</body>
</html>
`))
