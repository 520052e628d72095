package fifostall

import (
	"reflect"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// tables are the fifo-stall bundle's CSV files with their row types and what each row is;
// each column's unit and meaning are in its row type's tags, and a column without them
// is a test failure (datapackage_test.go), so that a new column cannot go undescribed.
var tables = []bundle.Table{
	{File: RunsFile, Name: "runs", Text: "One row per run, failed and redone ones too: its condition, whether it is data, and the figures derived from its requests, containers and timeline.", Row: reflect.TypeFor[RunRow](), Key: []string{"run_id"},
		Refs: []bundle.Ref{{Columns: conditionAxes, Table: ConditionsFile}}, Verified: "verified", Superseded: "superseded"},
	{File: RequestsFile, Name: "requests", Text: "One row per measured request (warm-up requests are not measured). Phase times count from the request's scheduled send time.", Row: reflect.TypeFor[RequestRow](), Key: []string{"run_id", "seq"},
		Refs: []bundle.Ref{ofRun}},
	{File: ContainersFile, Name: "containers", Text: "One row per container per run: its limits as the kernel applied them and its counters over the measured interval.", Row: reflect.TypeFor[ContainerRow](), Key: []string{"run_id", "role"},
		Refs: []bundle.Ref{ofRun}},
	{File: TimelineFile, Name: "timeline", Text: "Cumulative log bytes over time: series generated (the API's, one sample per record) and read (the reader's, one per read).", Row: reflect.TypeFor[TimelineRow](), Enums: map[string][]string{"series": {"generated", "read"}},
		Refs: []bundle.Ref{ofRun}},
	// A condition's row pools its runs (DeriveConditions): it has one at least, a redone one perhaps.
	{File: ConditionsFile, Name: "conditions", Text: "One row per condition (api x mode x reader): figures pooled over its verified runs that were not redone, and the model's expectation.", Row: reflect.TypeFor[ConditionRow](), Key: conditionAxes,
		Refs: []bundle.Ref{{Columns: conditionAxes, Table: RunsFile, To: conditionAxes}}},
}

// Declared is the declaration of the table in file.
func Declared(file string) bundle.Table {
	for _, t := range tables {
		if t.File == file {
			return t
		}
	}
	panic("fifo-stall has no table " + file)
}

// AddedLater are the columns a bundle of an earlier kit lacks that the kit's own
// columns (tabular.RunPlace, tabular.Attempted) hold, and what the kit that added each
// did first: such a bundle reads them as absent, and says so. Its own columns say it
// in their tags (later).
var AddedLater = map[string]string{"attempt": "it redid runs", "superseded": "it redid runs", "wall_s": "it timed its own cost per run"}

// conditionAxes are the columns that name a condition, in runs.csv and conditions.csv.
var conditionAxes = []string{"api", "mode", "reader"}

// ofRun is a row's reference to its run.
var ofRun = bundle.Ref{Columns: []string{"run_id"}, Table: RunsFile}

// manifestText documents the manifest's keys that a reader could misread.
const manifestText = bundle.ManifestLead +
	"on which engine (engine.*; engine.cgroup_version is a string, \"1\" or \"2\"), with which images, " + bundle.ManifestProgress + ", the parameters every run shared and the instrument's calibration. " +
	"Sentinels: parameters.reader_bounds_bytes_per_s maps a reader to its bound, 0 = unbounded; parameters.max_send_lag_p99_ms 0 = a bundle " +
	"written before the bound was recorded (1 ms applies); calibration.capacity_rps 0 = the capacity sweep found no rate that held; " +
	"calibration is absent when the run was not calibrated."

// describe names the data package as every fifo-stall bundle's has named it.
var describe = tabular.Describes(Name, "every run's requests, containers and log timeline, and the figures derived from them. "+
	"SHA256SUMS lists every file's SHA-256; `logbench verify` recomputes every figure from the rows. An empty CSV field is a missing value.",
	manifestText)
