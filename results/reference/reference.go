// Package reference holds what each experiment's publication says, as data: its figures
// (<experiment>/figures.csv) and its setup (<experiment>/setup.json: the source, the
// host, the parameters in the manifest's own keys). reproduce, compare and report read
// them from here; no published value is a constant in code.
package reference

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocarina/gocsv"
)

//go:embed */figures.csv */setup.json
var files embed.FS

// Setup is how a publication measured: where its figures come from, on what host, with
// which parameters (keyed as the experiment's manifest keys them, so that a bundle's
// parameters can be set against them key by key).
type Setup struct {
	Source string `json:"source"`
	// API is the implementation the publication measured, as the experiment names it.
	API  string `json:"api"`
	Host struct {
		Name         string `json:"name"`
		Architecture string `json:"architecture"`
		CPUs         string `json:"cpus"`
		Memory       string `json:"memory"`
		OS           string `json:"os"`
		Runtime      string `json:"runtime"`
	} `json:"host"`
	Parameters           map[string]any `json:"parameters"`
	RunsPerCondition     int            `json:"runs_per_condition"`
	RequestsPerCondition int            `json:"requests_per_condition"`
}

// SetupOf reads an experiment's published setup.
func SetupOf(experiment string) (Setup, error) {
	var s Setup
	body, err := files.ReadFile(experiment + "/setup.json")
	if err != nil {
		return s, fmt.Errorf("no published setup for experiment %q", experiment)
	}
	if err := json.Unmarshal(body, &s); err != nil {
		return s, fmt.Errorf("%s/setup.json: %w", experiment, err)
	}
	return s, nil
}

// FiguresCSV is an experiment's published figures as CSV; each experiment reads its
// own columns.
func FiguresCSV(experiment string) ([]byte, error) {
	body, err := files.ReadFile(experiment + "/figures.csv")
	if err != nil {
		return nil, fmt.Errorf("no published figures for experiment %q", experiment)
	}
	return body, nil
}

// FlatParameters are a setup's parameters as "parameters.<path>" -> JSON value, the
// form in which a manifest's parameters are compared with them.
func (s Setup) FlatParameters() map[string]string {
	out := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				walk(path+"."+k, x)
			}
			return
		}
		b, _ := json.Marshal(v)
		out[path] = string(b)
	}
	walk("parameters", s.Parameters)
	return out
}

// Source names where the fifo-stall figures come from.
var Source = MustSetup("fifo-stall").Source

// MustSetup reads a setup the kit embeds; a test reads every one, so it cannot fail.
func MustSetup(experiment string) Setup {
	s, err := SetupOf(experiment)
	if err != nil {
		panic(err) // the embedded data is the kit's own: a test reads every file
	}
	return s
}

// Figure is one published value of the fifo-stall experiment.
type Figure struct {
	Mode   string  `csv:"mode"`
	Reader string  `csv:"reader"`
	Metric string  `csv:"metric"`
	Value  float64 `csv:"value"`
	Unit   string  `csv:"unit"`
	Note   string  `csv:"note"`
}

// Figures are the fifo-stall experiment's published values, keyed by mode, reader and
// metric.
type Figures map[string]Figure

// Rows parses an experiment's published figures (figures.csv) into rows of T, whose
// csv tags name its columns.
func Rows[T any](experiment string) ([]T, error) {
	body, err := FiguresCSV(experiment)
	if err != nil {
		return nil, err
	}
	var rows []T
	if err := gocsv.UnmarshalBytes(body, &rows); err != nil {
		return nil, fmt.Errorf("published figures of %s: %w", experiment, err)
	}
	return rows, nil
}

// Load parses the fifo-stall experiment's published figures.
func Load() (Figures, error) {
	rows, err := Rows[Figure]("fifo-stall")
	if err != nil {
		return nil, err
	}
	out := Figures{}
	for _, f := range rows {
		out[key(f.Mode, f.Reader, f.Metric)] = f
	}
	return out, nil
}

// Lookup returns the published value of metric for mode and reader, converted to the
// kit's units (ms, s, req/s, bytes, us, cores).
func (f Figures) Lookup(mode, reader, metric string) (float64, bool) {
	fig, ok := f[key(mode, reader, metric)]
	if !ok {
		return 0, false
	}
	if fig.Unit == "KiB" {
		return fig.Value * 1024, true
	}
	return fig.Value, true
}

func key(mode, reader, metric string) string {
	return strings.Join([]string{mode, reader, metric}, "/")
}
