package qps

import (
	"github.com/logbench/logbench/results/reference"
)

// Published are the article's figures (results/reference/qps/figures.csv).
type Published struct {
	Source string
	// API is the API the article measured, as its setup names it.
	API string
	// RequestsPerS is the published mean requests per second by configuration.
	RequestsPerS map[string]float64
}

type figure struct {
	Configuration string  `csv:"configuration"`
	Metric        string  `csv:"metric"`
	Value         float64 `csv:"value"`
	Unit          string  `csv:"unit"`
	Note          string  `csv:"note"`
}

// LoadPublished reads the published figures and setup.
func LoadPublished() (Published, error) {
	setup, err := reference.SetupOf(Name)
	if err != nil {
		return Published{}, err
	}
	rows, err := reference.Rows[figure](Name)
	p := Published{Source: setup.Source, API: setup.API, RequestsPerS: map[string]float64{}}
	for _, f := range rows {
		if f.Metric == "requests_per_s_mean" {
			p.RequestsPerS[f.Configuration] = f.Value
		}
	}
	return p, err
}

// mustPublished are the published figures, which the kit embeds: a test reads them.
func mustPublished() Published {
	pub, err := LoadPublished()
	if err != nil {
		panic(err)
	}
	return pub
}
