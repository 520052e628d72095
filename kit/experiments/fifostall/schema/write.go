package schema

import (
	"github.com/logbench/logbench/kit/offline/bundle"
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
	return bundle.WriteFiles(dir, files)
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
	return bundle.Encode(b.Manifest, map[string]any{
		RunsFile: &runs, RequestsFile: &requests, ContainersFile: &containers, TimelineFile: &timeline, ConditionsFile: &conditions,
	}, NewDataPackage())
}
