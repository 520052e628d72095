package main

import (
	"encoding/json"
	"io"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The JSON documents of verify, experiments, archive and calibrate (compare's is
// compare.Document): each one object whose "schema" names the command and the
// version of its layout, logbench/<command>/v1, documented field by field in
// docs/cli.md (TestTheJSONDocumentsAreTheDocumentedOnes holds the two together).

// schemaOf names a command's JSON layout.
func schemaOf(command string) string { return compare.SchemaOf(command) }

// textOrJSON are the formats of the commands that print a report of their own.
var textOrJSON = []string{"text", "json"}

// formatUsage is the usage of --format of verify, experiments and archive.
const formatUsage = "output: text or json (one document, its layout in docs/cli.md)"

// outputFormat validates --format f.
func outputFormat(f string) (string, error) {
	if !slices.Contains(textOrJSON, f) {
		return "", usagef("--format %q: want text or json", f)
	}
	return f, nil
}

// writeJSON writes one indented document.
func writeJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// VerifyJSON is verify --format json: every bundle named, in order.
type VerifyJSON struct {
	Schema  string       `json:"schema"`  // logbench/verify/v1
	OK      bool         `json:"ok"`      // every bundle verifies (and its signature holds, with --key)
	Bundles []BundleJSON `json:"bundles"` // one per bundle named
}

// BundleJSON is one bundle's verification.
type BundleJSON struct {
	Bundle     string `json:"bundle"`     // the path given
	Experiment string `json:"experiment"` // the experiment that wrote it; "" when it could not be read
	OK         bool   `json:"ok"`
	// Error says why the bundle could not be read at all, or why its signature does
	// not hold; "" for neither.
	Error    string        `json:"error"`
	Verdict  string        `json:"verdict"` // the text's verdict line (OK: ... or FAILED: ...)
	Counts   CountsJSON    `json:"counts"`
	Trust    []string      `json:"trust"`    // one line per condition: how far its figures can be trusted
	Weakened []string      `json:"weakened"` // what weakens the figures even of a bundle that verifies
	Problems []ProblemJSON `json:"problems"` // what makes the bundle wrong: any fails it
	Notes    []ProblemJSON `json:"notes"`    // differences that do not
	// Signature is "none" (no signature beside the bundle), "unchecked" (one is there,
	// no --key given), "good" or "bad" (with --key).
	Signature string `json:"signature"`
	SignedBy  string `json:"signed_by"` // the key and what it signed, when good
}

// CountsJSON say how much was checked.
type CountsJSON struct {
	Files      int  `json:"files"`      // files whose SHA-256 matched SHA256SUMS
	Runs       int  `json:"runs"`       // runs, failed and redone ones too
	Verified   int  `json:"verified"`   // runs whose every log byte was read back
	Redone     int  `json:"redone"`     // attempts performed again, in no figure
	Trusted    *int `json:"trusted"`    // verified runs whose instrument held; null: the experiment has no such test
	Noisy      int  `json:"noisy"`      // runs measured on a noisy host
	Conditions int  `json:"conditions"` // conditions
}

// ProblemJSON is a problem or a note, its parts as verify.Problem has them and its
// line as the text prints it.
type ProblemJSON struct {
	File   string `json:"file"`
	Line   int    `json:"line"` // 1-based, the header being 1; 0: not about one line
	Key    string `json:"key"`
	Column string `json:"column"`
	Have   string `json:"have"`
	Want   string `json:"want"`
	Msg    string `json:"msg"`
	Text   string `json:"text"`
}

func problemsJSON(ps []verify.Problem) []ProblemJSON {
	out := []ProblemJSON{}
	for _, p := range ps {
		out = append(out, ProblemJSON{p.File, p.Line, p.Key, p.Column, p.Have, p.Want, p.Msg, p.String()})
	}
	return out
}

// verificationJSON is a verification's record, without what only verify knows (its
// signature, an error reading it).
func verificationJSON(path string, res *verify.Result) BundleJSON {
	b := BundleJSON{Bundle: path, Trust: []string{}, Weakened: []string{}, Problems: []ProblemJSON{}, Notes: []ProblemJSON{}, Signature: "none"}
	if res == nil {
		return b
	}
	c := res.Counts
	b.Experiment, b.OK = res.Experiment, res.OK()
	b.Verdict, _, _ = strings.Cut(res.Summary(), "\n")
	b.Counts = CountsJSON{Files: c.Files, Runs: c.Runs, Verified: c.Verified, Redone: c.Superseded, Noisy: c.Noisy, Conditions: c.Conditions}
	if c.Trusted >= 0 {
		trusted := c.Trusted
		b.Counts.Trusted = &trusted
	}
	b.Trust = append(b.Trust, res.Trust...)
	b.Weakened = append(b.Weakened, res.Weakened...)
	b.Problems, b.Notes = problemsJSON(res.Problems), problemsJSON(res.Notes)
	return b
}

// json is the check as verify --format json reports it.
func (b bundleCheck) json() BundleJSON {
	out := verificationJSON(b.path, b.res)
	out.OK = b.ok()
	if b.err != nil {
		out.Error = b.err.Error()
	}
	if b.sig != "" {
		out.Signature = b.sig
	}
	out.SignedBy = b.by
	return out
}

// ExperimentsJSON is experiments --format json.
type ExperimentsJSON struct {
	Schema      string           `json:"schema"` // logbench/experiments/v1
	Experiments []ExperimentJSON `json:"experiments"`
}

// ExperimentJSON is one experiment reproduce knows.
type ExperimentJSON struct {
	Experiment string `json:"experiment"` // its name, as reproduce takes it
	Default    bool   `json:"default"`    // reproduce's when none is named
	Summary    string `json:"summary"`    // what it measures
	Published  string `json:"published"`  // where its published figures come from
	// Calibrate says the experiment has an instrument calibrate measures.
	Calibrate bool `json:"calibrate"`
}

// ArchiveJSON is archive --format json: the bundle's verification and the archive
// written (none when the bundle does not verify).
type ArchiveJSON struct {
	Schema       string     `json:"schema"` // logbench/archive/v1
	Experiment   string     `json:"experiment"`
	Verification BundleJSON `json:"verification"`
	Archive      *string    `json:"archive"`   // the .tar.gz written; null: none
	Folder       string     `json:"folder"`    // the bundle's folder inside it
	Files        int        `json:"files"`     // files in it, read back
	Bytes        int        `json:"bytes"`     // its size
	SHA256       string     `json:"sha256"`    // of the archive, hex
	Signature    *string    `json:"signature"` // the signature file written (--sign); null: none
}

// CalibrateJSON is calibrate --format json: the instrument's figures.
type CalibrateJSON struct {
	Schema     string            `json:"schema"` // logbench/calibrate/v1
	Experiment string            `json:"experiment"`
	Figures    []CalibrateFigure `json:"figures"`
}

// CalibrateFigure is one figure of the instrument.
type CalibrateFigure struct {
	Figure string `json:"figure"` // its name
	Value  string `json:"value"`  // as measured, with its unit
	What   string `json:"what"`   // what it says
}
