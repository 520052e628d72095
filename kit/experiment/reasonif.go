package experiment

import "fmt"

// ReasonIf is a reason a run failed or is marked, when bad holds, and "" otherwise: an
// entry of JoinFailures, which leaves the empty ones out, so that a run's rules read
// as one list.
func ReasonIf(bad bool, format string, args ...any) string {
	if !bad {
		return ""
	}
	return fmt.Sprintf(format, args...)
}
