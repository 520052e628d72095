// Package compare puts the bundles of any experiment side by side: each experiment
// hands its rows (condition, metric, per-run values) and its manifests to Write, and
// the engine gives one table per metric with intervals, changes and p-values from a
// hierarchical bootstrap, the hosts, and a warning for every difference between the
// bundles. Table and Figure lay out any other table the kit prints.
package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/logbench/logbench/kit/offline/figure"
)

// Table is a header and rows of cells.
type Table struct {
	Header []string
	Rows   [][]string
	// Group is how many leading columns name a row's group (a condition, say): text and
	// markdown show them only where they change, so that a group reads as a block. CSV
	// and JSON repeat them in every row.
	Group int
}

// grouped is the rows with repeated group cells blanked.
func (t Table) grouped() [][]string {
	if t.Group <= 0 {
		return t.Rows
	}
	out := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = r
		if i == 0 || len(r) < t.Group || len(t.Rows[i-1]) < t.Group || !slices.Equal(r[:t.Group], t.Rows[i-1][:t.Group]) {
			continue
		}
		blank := slices.Clone(r)
		for j := range t.Group {
			blank[j] = ""
		}
		out[i] = blank
	}
	return out
}

// Formats a table can be written in.
var Formats = []string{"text", "csv", "json", "markdown"}

// Write renders t in format.
func (t Table) Write(w io.Writer, format string) error {
	switch format {
	case "text", "":
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(t.Header, "\t"))
		for _, r := range t.grouped() {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		return tw.Flush()
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(t.Header)
		cw.WriteAll(t.Rows)
		return cw.Error()
	case "json":
		rows := make([]map[string]string, 0, len(t.Rows))
		for _, r := range t.Rows {
			m := map[string]string{}
			for i, h := range t.Header {
				m[h] = r[i]
			}
			rows = append(rows, m)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	case "markdown":
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(t.Header, " | "), strings.Repeat("---|", len(t.Header)))
		for _, r := range t.grouped() {
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		}
		return nil
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

// Figure formats a figure with a sensible number of digits; absent figures are "-".
func Figure(v float64) string { return figure.Text(v) }
