package experiment

import (
	"fmt"
	"strings"
)

// Failures gather why a row is not data, one reason each, as its failure column joins
// them (JoinFailures): the checks that must hold, each with what it says when it does
// not.
type Failures []string

// Unless adds the reason format says of args when ok is false.
func (f *Failures) Unless(ok bool, format string, args ...any) {
	if !ok {
		*f = append(*f, fmt.Sprintf(format, args...))
	}
}

// String is the reasons joined by "; ", "" when there are none.
func (f Failures) String() string { return strings.Join(f, "; ") }
