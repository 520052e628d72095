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

// Set changes one cell.
func (tb *Table) Set(t testing.TB, row int, column, value string) {
	t.Helper()
	i := slices.Index(tb.Header, column)
	if i < 0 {
		t.Fatalf("no column %s in %v", column, tb.Header)
	}
	tb.Rows[row][i] = value
}

// Write puts the table back as file of f.
func (tb *Table) Write(f *bundle.Files, file string) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(tb.Header)
	w.WriteAll(tb.Rows)
	f.Data[file] = buf.Bytes()
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
