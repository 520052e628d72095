package report

import (
	"strings"
	"testing"
)

// TestWriteText: words aligned left, figures right, the caption above, each column as
// wide as its widest cell.
func TestWriteText(t *testing.T) {
	var b strings.Builder
	tb := Table{Caption: "c", Header: []string{"name", "ns"}, Rows: [][]string{{"go/format", "7"}, {"py", "1234"}}, Text: 1}
	if err := tb.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "c\nname         ns\ngo/format     7\npy         1234\n"; b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
}
