// Package reporttest renders an experiment's page for the tests of its report; the page
// is opened in a browser with kit/internal/browsertest.
package reporttest

import (
	"bytes"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Render is e's page of the verified bundles res, each labelled by its name, as the
// report command writes it; an error fails the test.
func Render(t *testing.T, e experiment.Experiment, res ...*verify.Result) string {
	t.Helper()
	var sources []experiment.Source
	for _, r := range res {
		sources = append(sources, experiment.Source{Label: r.Name, Result: r})
	}
	var buf bytes.Buffer
	if err := e.Report(&buf, sources, "test"); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
