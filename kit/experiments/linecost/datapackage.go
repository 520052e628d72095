package linecost

import (
	"reflect"

	"github.com/logbench/logbench/kit/experiment/tabular"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// tables are the bundle's CSV files with their row types and what one row is.
var tables = []bundle.Table{
	{File: RunsFile, Name: "runs", Row: reflect.TypeFor[RunRow](), Key: []string{"run_id"}, Verified: "verified",
		// A run's library is its condition's; both are empty in bundles written before the library axis.
		Refs: []bundle.Ref{{Columns: []string{"language", "library_id", "way"}, Table: ConditionsFile}},
		Text: "One row per run, failed ones too: one container measuring one way of one language, what its program reported of itself " +
			"(runtime, library, the call, the clocks' cost, the file system), and its verdict from its trials.",
		Enums: map[string][]string{"language": Languages, "way": lc.Ways}},
	{File: TrialsFile, Name: "trials", Row: reflect.TypeFor[TrialRow](), Key: []string{"run_id", "trial"},
		Refs: []bundle.Ref{{Columns: []string{"run_id"}, Table: RunsFile}},
		Text: "One row per measured trial (warm-up trials are not kept): lines log calls of one way in a row, timed by the calling thread's CPU clock " +
			"and the monotonic clock, with the container's cgroup read around it, and every line written checked against the kit's own regeneration of it.",
		Enums: map[string][]string{"language": Languages, "way": lc.Ways}},
	{File: ConditionsFile, Name: "conditions", Row: reflect.TypeFor[ConditionRow](), Key: []string{"language", "library", "way"},
		Text: "One row per condition (language x library x way, in the manifest's order, a way the library cannot do marked not_offered): each figure the mean over its verified runs of each run's median over its trials, with a 95% Student-t interval over runs, " +
			"what the way costs a service at the manifest's rate, and the seed's published figure beside it.",
		Enums: map[string][]string{"language": Languages, "way": lc.Ways, "headline": {HeadlineCPU, HeadlineWall}}},
}

// manifestText documents the manifest's keys a reader could misread.
const manifestText = bundle.ManifestLead + "on which engine (engine.*), with which images, " + bundle.ManifestProgress + ", " +
	"and the parameters every run shared: languages, libraries and ways (the matrix; libraries absent in bundles written before the library axis), line (the shape asked), rounds, lines_per_trial (fsync_lines_per_trial for fsync), trials and " +
	"warmup_trials per run, queue_size and queue_full (block or drop) of the queue way, rate_lines_per_s (the rate conditions.csv costs a way at), " +
	"volume (the named volume written to; empty = a fresh one per run), the container's cpus (0 = no limit), memory_bytes (no swap), pids_limit and " +
	"platform; in bundles of earlier kits, bootstrap_resamples (the bootstrap their conditions.csv intervals were drawn with)."

// describe names the data package as every line-cost bundle's has named it.
var describe = tabular.Describes(Name, "what one log line costs, each way in each language, every trial's clocks, cgroup and "+
	"verified lines, and each condition's figures beside the seed's. SHA256SUMS lists every file's SHA-256; `logbench verify` "+
	"repeats every trial's checks and recomputes every figure from the rows. An empty field is a missing value (bundles written before missing figures were empty cells spell it NaN).",
	manifestText)
