// Package reference holds the published figures of the reference article as data
// (published-figures.csv beside this file), for putting measured figures beside them.
package reference

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/gocarina/gocsv"
)

//go:embed published-figures.csv
var figuresCSV string

// Source names where the figures come from.
const Source = "KamuiDash article, Raspberry Pi 5, Python 3.11.2, 2026-10-29"

// Figure is one published value.
type Figure struct {
	Mode   string  `csv:"mode"`
	Reader string  `csv:"reader"`
	Metric string  `csv:"metric"`
	Value  float64 `csv:"value"`
	Unit   string  `csv:"unit"`
	Note   string  `csv:"note"`
}

// Figures are the published values, keyed by mode, reader and metric.
type Figures map[string]Figure

// Load parses the embedded figures.
func Load() (Figures, error) {
	var rows []Figure
	if err := gocsv.UnmarshalString(figuresCSV, &rows); err != nil {
		return nil, fmt.Errorf("published figures: %w", err)
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
