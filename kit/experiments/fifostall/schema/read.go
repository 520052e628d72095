package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/regular"
)

// Load reads the bundle in dir after checking every file against SHA256SUMS; a file
// that is not a regular file, or is larger than bundle.MaxFileBytes allows for its
// name, is refused before it is read.
func Load(dir string) (*Bundle, error) {
	files := map[string][]byte{}
	read := func(name string) ([]byte, error) {
		return regular.ReadFile(filepath.Join(dir, name), bundle.MaxFileBytes(name), regular.NoLinks)
	}
	sumsBody, err := read(bundle.SumsFile)
	if err != nil {
		return nil, err
	}
	want, err := bundle.ParseSums(sumsBody)
	if err != nil {
		return nil, err
	}
	for _, name := range DataFiles {
		body, err := read(name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		if hex.EncodeToString(sum[:]) != want[name] {
			return nil, fmt.Errorf("%s: SHA-256 does not match %s", name, bundle.SumsFile)
		}
		files[name] = body
	}
	return Parse(files)
}

// Parse builds a bundle from its files' contents.
func Parse(files map[string][]byte) (*Bundle, error) {
	var b Bundle
	if err := bundle.DecodeStrict(files[bundle.ManifestFile], &b.Manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", bundle.ManifestFile, err)
	}
	if b.Manifest.SchemaVersion != bundle.SchemaVersion {
		return nil, fmt.Errorf("%s: schema_version %d is not one this kit reads (%d)", bundle.ManifestFile, b.Manifest.SchemaVersion, bundle.SchemaVersion)
	}
	runs, err1 := decodeAll[RunRow](files, RunsFile)
	requests, err2 := decodeAll[RequestRow](files, RequestsFile)
	containers, err3 := decodeAll[ContainerRow](files, ContainersFile)
	timeline, err4 := decodeAll[TimelineRow](files, TimelineFile)
	conditions, err5 := decodeAll[ConditionRow](files, ConditionsFile)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		return nil, err
	}
	b.Conditions = conditions
	index := map[string]int{}
	for _, r := range runs {
		index[r.RunID] = len(b.Runs)
		b.Runs = append(b.Runs, Rows{Run: r})
	}
	at := func(file, id string) (*Rows, error) {
		i, ok := index[id]
		if !ok {
			return nil, fmt.Errorf("%s: run_id %q is not in %s", file, id, RunsFile)
		}
		return &b.Runs[i], nil
	}
	for _, r := range requests {
		rows, err := at(RequestsFile, r.RunID)
		if err != nil {
			return nil, err
		}
		rows.Requests = append(rows.Requests, r)
	}
	for _, r := range containers {
		rows, err := at(ContainersFile, r.RunID)
		if err != nil {
			return nil, err
		}
		rows.Containers = append(rows.Containers, r)
	}
	for _, r := range timeline {
		rows, err := at(TimelineFile, r.RunID)
		if err != nil {
			return nil, err
		}
		rows.Timeline = append(rows.Timeline, r)
	}
	return &b, nil
}

// decodeAll reads one CSV file of the bundle strictly, failing at its first problem.
func decodeAll[T any](files map[string][]byte, name string) ([]T, error) {
	d := bundle.DecodeCSV[T](name, files[name], 1)
	if len(d.Errs) > 0 {
		return nil, d.Errs[0]
	}
	return d.Rows, nil
}
