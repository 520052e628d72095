package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText writes the table as aligned text, for a terminal and a summary: its caption
// on a line of its own (none when empty), then the header and a line a row, the words
// of the first Text columns aligned left and the figures right, as the page aligns
// them. One table serves the summary an experiment prints and the report it draws.
func (t Table) WriteText(w io.Writer) error {
	width := make([]int, len(t.Header))
	rows := append([][]string{t.Header}, t.Rows...)
	for _, r := range rows {
		for i, cell := range r {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(cell))
			}
		}
	}
	var b strings.Builder
	if t.Caption != "" {
		b.WriteString(t.Caption + "\n")
	}
	for _, r := range rows {
		var line []string
		for i, cell := range r {
			if i >= len(width) {
				break
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if i < t.Text {
				line = append(line, cell+pad)
			} else {
				line = append(line, pad+cell)
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(line, "  "), " ") + "\n")
	}
	_, err := fmt.Fprint(w, b.String())
	return err
}
