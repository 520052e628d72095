// Package didyoumean finds the name a mistyped one most likely meant, for the command
// line's "did you mean" (git's and the go tool's habit): the closest by edit distance
// (Wagner-Fischer, from the metrics urfave/cli already uses), or the one name it begins.
package didyoumean

import (
	"fmt"

	"github.com/xrash/smetrics"
)

// Closest is the candidate name most likely meant, and false when none is near enough
// to suggest: within an edit distance of a third of its length (at least 2: "qsp" is
// "qps" with two letters swapped), or the only candidate that begins with name.
func Closest(name string, candidates []string) (string, bool) {
	if name == "" {
		return "", false
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		d := smetrics.WagnerFischer(name, c, 1, 1, 1)
		if d <= max(2, len(c)/3) && d < len(c) {
			if bestDist < 0 || d < bestDist {
				best, bestDist = c, d
			}
		}
	}
	if bestDist >= 0 {
		return best, true
	}
	var prefixed []string
	for _, c := range candidates {
		if len(name) >= 2 && len(c) > len(name) && c[:len(name)] == name {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], true
	}
	return "", false
}

// Suffix is `; did you mean "NAME"?` with the closest of candidates (quoted as format's
// %q would), or "" when none is near: to end an error message with.
func Suffix(name string, candidates []string) string {
	if c, ok := Closest(name, candidates); ok {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}
