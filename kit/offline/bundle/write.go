package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"

	"github.com/gocarina/gocsv"
)

// Bundle is a bundle in memory: its manifest and the rows of every run so far.
type Bundle struct {
	Manifest Manifest
	Runs     []Rows
	// Conditions are as read from a bundle's conditions.csv; Save derives them afresh.
	Conditions []ConditionRow
}

// Save writes the bundle to dir (see WriteFiles).
func (b *Bundle) Save(dir string) error {
	files, err := b.Files()
	if err != nil {
		return err
	}
	return WriteFiles(dir, files)
}

// Files are the bundle's files but SHA256SUMS, conditions.csv derived afresh.
func (b *Bundle) Files() (map[string][]byte, error) {
	var requests []RequestRow
	var runs []RunRow
	var containers []ContainerRow
	var timeline []TimelineRow
	for _, r := range b.Runs {
		runs = append(runs, r.Run)
		requests = append(requests, r.Requests...)
		containers = append(containers, r.Containers...)
		timeline = append(timeline, r.Timeline...)
	}
	b.Conditions = DeriveConditions(b.Runs, b.Manifest.Parameters)
	conditions := b.Conditions
	return Encode(b.Manifest, map[string]any{
		RunsFile: &runs, RequestsFile: &requests, ContainersFile: &containers, TimelineFile: &timeline, ConditionsFile: &conditions,
	}, NewDataPackage())
}

// marshalCSV writes rows with a header even when there are none.
func marshalCSV(rows any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gocsv.Marshal(rows, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sums lists files in the format `sha256sum -c` reads, sorted by name.
func sums(files map[string][]byte) []byte {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&buf, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	return buf.Bytes()
}

func writeAtomic(path string, body []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, body, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
