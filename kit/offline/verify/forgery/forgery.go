// Package forgery edits a bundle's files in memory the way a careful forger would, and
// writes SHA256SUMS again, so that a test sees which rule alone refuses the edit.
package forgery

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Open reads a bundle (an archive or a folder).
func Open(t testing.TB, path string) *bundle.Files {
	t.Helper()
	f, err := bundle.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Table is a CSV file as cells.
type Table struct {
	Header []string
	Rows   [][]string
}

// Read parses file of f.
func Read(t testing.TB, f *bundle.Files, file string) *Table {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(f.Data[file])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return &Table{Header: recs[0], Rows: recs[1:]}
}

// Col is the index of a column.
func (tb *Table) Col(t testing.TB, name string) int {
	t.Helper()
	i := slices.Index(tb.Header, name)
	if i < 0 {
		t.Fatalf("no column %s", name)
	}
	return i
}

// Find is the first row (from 0, after the header) whose column holds value.
func (tb *Table) Find(t testing.TB, column, value string) int {
	t.Helper()
	c := tb.Col(t, column)
	for i, r := range tb.Rows {
		if r[c] == value {
			return i
		}
	}
	t.Fatalf("no row with %s %s", column, value)
	return -1
}

// Get is one cell.
func (tb *Table) Get(t testing.TB, row int, column string) string {
	t.Helper()
	return tb.Rows[row][tb.Col(t, column)]
}

// Set changes one cell.
func (tb *Table) Set(t testing.TB, row int, column, value string) {
	t.Helper()
	tb.Rows[row][tb.Col(t, column)] = value
}

// Write puts the table back as file of f.
func (tb *Table) Write(f *bundle.Files, file string) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(tb.Header)
	w.WriteAll(tb.Rows)
	f.Data[file] = buf.Bytes()
}

// Replace replaces the first old in file of f by new.
func Replace(t testing.TB, f *bundle.Files, file, old, new string) {
	t.Helper()
	if !strings.Contains(string(f.Data[file]), old) {
		t.Fatalf("%s has no %s", file, old)
	}
	f.Data[file] = []byte(strings.Replace(string(f.Data[file]), old, new, 1))
}

// Rewrite puts files in f in place of its own, as a forger who derived them again in
// step with an edit writes them, and writes SHA256SUMS again.
func Rewrite(f *bundle.Files, files map[string][]byte) {
	for name, body := range files {
		f.Data[name] = body
	}
	Resum(f)
}

// Resum writes SHA256SUMS for every other file as it is now.
func Resum(f *bundle.Files) {
	var names []string
	for name := range f.Data {
		if name != bundle.SumsFile {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var buf bytes.Buffer
	for _, name := range names {
		sum := sha256.Sum256(f.Data[name])
		fmt.Fprintf(&buf, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	f.Data[bundle.SumsFile] = buf.Bytes()
}
