package report

import "html/template"

// page is the report's one HTML file: inline CSS, inline SVG, no script, nothing fetched.
var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>logbench report: {{.Title}}</title>
<style>
  :root { --ok: #0b7a3e; --bad: #b3261e; --ink: #1d1d1f; --muted: #5f6368; --rule: #e3e3e3; }
  * { box-sizing: border-box; }
  body { margin: 0; padding: 24px clamp(12px, 3vw, 32px) 48px; font: 15px/1.45 "Liberation Sans", Arial, Helvetica, sans-serif; color: var(--ink); background: #fff; }
  main { max-width: 1400px; margin: 0 auto; }
  h1 { font-size: 26px; margin: 0 0 4px; }
  h2 { font-size: 20px; margin: 36px 0 6px; padding-top: 8px; border-top: 1px solid var(--rule); }
  h3 { font-size: 15px; margin: 0 0 4px; }
  p.sub, p.caption { color: var(--muted); margin: 0 0 12px; }
  .status { padding: 12px 16px; border-radius: 6px; margin: 16px 0; border: 1px solid; }
  .status.ok { border-color: var(--ok); background: #eef8f1; }
  .status.bad { border-color: var(--bad); background: #fcefee; }
  .status.note { border-color: var(--rule); background: #f6f7f9; }
  .status strong { font-size: 17px; }
  .status .sum { white-space: pre-line; overflow-wrap: anywhere; }
  .status.ok strong { color: var(--ok); }
  .status.bad strong { color: var(--bad); }
  .status ul { margin: 8px 0 0; padding-left: 20px; font: 13px/1.4 "Liberation Mono", Menlo, Consolas, monospace; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(560px, 100%), 1fr)); gap: 16px 28px; }
  .grid > figure { min-width: 0; }
  figure { margin: 0; }
  figure svg { width: 100%; height: auto; display: block; }
  figure svg text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
  .err { color: var(--bad); font-family: monospace; }
  table { border-collapse: collapse; font-size: 13px; }
  th, td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid var(--rule); vertical-align: top; }
  th { color: var(--muted); font-weight: normal; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; }
  .facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(420px, 100%), 1fr)); gap: 8px 28px; }
  .facts > div { min-width: 0; overflow-x: auto; }
  td { overflow-wrap: anywhere; }
  .wide { overflow-x: auto; }
  article.bundle { border-top: 3px solid var(--rule); margin-top: 32px; }
  footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
</style>
</head>
<body>
<main>
{{if gt (len .Bundles) 1}}<h1>logbench report: {{.Title}}</h1>
<p class="sub">{{len .Bundles}} bundles side by side, each with its own plots below.</p>
<section id="hosts">
<h2>Hosts</h2>
<div class="wide"><table>
<tr><th></th>{{range .Bundles}}<th>{{.Name}}</th>{{end}}</tr>
{{range .Hosts}}<tr>{{range $i, $c := .}}{{if eq $i 0}}<th>{{$c}}</th>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table></div>
</section>
{{range .Bundles}}<article class="bundle">
{{template "bundle" .}}
</article>
{{end}}{{else}}{{template "bundle" (index .Bundles 0)}}{{end}}
<footer>Written by logbench {{.Version}} from {{.Title}}. Self-contained: no script, nothing fetched.</footer>
</main>
</body>
</html>
`))

// bundleBlock is one bundle's part of the page.
var _ = template.Must(page.New("bundle").Parse(`<h1>{{if .Prefix}}{{.Name}}{{else}}logbench report: {{.Name}}{{end}}</h1>
<p class="sub">{{.Command}} · {{.Created}} to {{.Finished}} · written by logbench {{.KitVersion}}</p>

<section id="{{.Prefix}}verification">
{{if .OK}}<div class="status ok"><strong>Verified</strong> — <span class="sum">{{.Summary}}</span></div>
{{else}}<div class="status bad"><strong>Does not verify</strong> — <span class="sum">{{.Summary}}</span>
<ul>{{range .Problems}}<li>{{.}}</li>{{end}}{{if .MoreProblems}}<li>… and {{.MoreProblems}} more (logbench verify lists them all)</li>{{end}}</ul></div>
{{end}}{{if .Notes}}<div class="status note"><strong>Notes</strong><ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
</section>

<section id="{{.Prefix}}host" class="facts">
<div><h3>Host</h3><table>{{range .Facts}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}</table></div>
<div><h3>Setup</h3><table>{{range .Setup}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}</table></div>
</section>
{{range .Sections}}
<section id="{{$.Prefix}}{{.ID}}">
<h2>{{.Title}}</h2>
<p class="caption">{{.Caption}}</p>
{{if .Empty}}<p>{{.Empty}}</p>{{end}}
<div class="grid">{{range .Plots}}
<figure>{{if .Err}}<p class="err">{{.Title}}: could not be drawn: {{.Err}}</p>{{else}}{{.SVG}}{{end}}</figure>{{end}}
</div>
</section>
{{end}}
<section id="{{.Prefix}}conditions">
<h2>Conditions</h2>
<p class="caption">Every figure recomputed from the runs; failed runs are counted, never pooled.</p>
<div class="wide"><table>
<tr>{{range .ConditionHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .Conditions}}<tr>{{range $i, $c := .}}{{if eq $i 0}}<td>{{$c}}</td>{{else}}<td class="n">{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table></div>
</section>

{{if .Calibration}}<section id="{{.Prefix}}calibration">
<h2>Calibration</h2>
<p class="caption">The instrument measured on this engine inside the same limits just before the runs: every latency carries the send lag.</p>
<div class="wide"><table>{{range .Calibration}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}</table></div>
</section>{{else}}<section id="{{.Prefix}}calibration"><h2>Calibration</h2><p>This bundle was not calibrated: the instrument's send lag and capacity on this engine are unknown.</p></section>{{end}}

<section id="{{.Prefix}}runs">
<h2>Runs: trust and host noise</h2>
<p class="caption">Every run, failed and redone ones too: whether it is data, whether its send lag kept within the bound, and how busy the host was.</p>
<div class="wide"><table>
<tr>{{range .RunHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .Runs}}<tr>{{range $i, $c := .}}{{if lt $i 2}}<td>{{$c}}</td>{{else}}<td class="n">{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table></div>
</section>

<section id="{{.Prefix}}images">
<h2>Images</h2>
<div class="wide"><table><tr><th>role</th><th>tag</th><th>arch</th><th>size</th><th>binary SHA-256</th><th>runtime</th></tr>
{{range .Images}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>
</section>

`))
