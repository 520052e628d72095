package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

// Save writes the bundle to dir, every file replaced atomically and SHA256SUMS last,
// so that a bundle saved after each run is always complete and verifiable.
func (b *Bundle) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
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
	files := map[string][]byte{}
	for name, rows := range map[string]any{
		RunsFile: &runs, RequestsFile: &requests, ContainersFile: &containers, TimelineFile: &timeline, ConditionsFile: &conditions,
	} {
		body, err := marshalCSV(rows)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files[name] = body
	}
	manifest, err := json.MarshalIndent(b.Manifest, "", "  ")
	if err != nil {
		return err
	}
	files[ManifestFile] = append(manifest, '\n')
	for name, body := range files {
		if err := writeAtomic(filepath.Join(dir, name), body); err != nil {
			return err
		}
	}
	return writeAtomic(filepath.Join(dir, SumsFile), sums(files))
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
