package tabular

import (
	"strings"

	"github.com/logbench/logbench/kit/experiment"
)

// Attributed are the notes of every bundle drawn (of says a bundle's), each once, led
// by the labels of the bundles it concerns: "a, b: hardening relaxed: cap_add".
func Attributed[P experiment.Params, R any](ds []Drawn[P, R], of func(d Drawn[P, R]) []string) []string {
	var notes []string
	who := map[string][]string{}
	for _, d := range ds {
		for _, n := range of(d) {
			if who[n] == nil {
				notes = append(notes, n)
			}
			who[n] = append(who[n], d.Label)
		}
	}
	for i, n := range notes {
		notes[i] = strings.Join(who[n], ", ") + ": " + n
	}
	return notes
}
