package qps

import (
	"fmt"
	"reflect"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// DataPackageFile describes the bundle's files and columns for any reader (see
// bundle.DataPackageFile); a bundle written before the kit wrote it has none.
const DataPackageFile = bundle.DataPackageFile

// tables are the bundle's CSV files with their row types and what one row is.
var tables = []bundle.Table{
	{File: RunsFile, Name: "runs", Row: reflect.TypeFor[RunRow](), Key: []string{"run_id"}, Verified: "verified",
		Refs: []bundle.Ref{{Columns: []string{"api", "config"}, Table: ConditionsFile}},
		Text: "One row per run, failed ones too: the closed-loop load as the generator measured it, the API's own counters, the engine's and the host's CPU, " +
			"every access log read back and checked, and the figures derived from them (from requests on), which verify recomputes.",
		Enums: map[string][]string{"api": APIs, "config": Configs}},
	{File: SeriesFile, Name: "series", Row: reflect.TypeFor[SeriesRow](), Key: []string{"run_id", "second"},
		Refs: []bundle.Ref{{Columns: []string{"run_id"}, Table: RunsFile}},
		Text: "One row per second of each run's measured interval: the responses completed in it; a run's rows sum to its requests in runs.csv."},
	{File: ConditionsFile, Name: "conditions", Row: reflect.TypeFor[ConditionRow](), Key: []string{"api", "config"},
		Text:  "One row per condition (api x config, in the manifest's order): figures pooled over its verified runs, and the article's figures beside them.",
		Enums: map[string][]string{"api": APIs, "config": Configs}},
}

// manifestText documents the manifest's keys a reader could misread.
const manifestText = bundle.ManifestLead + "on which engine (engine.*), with which images, " + bundle.ManifestProgress + ", " +
	"and the parameters every run shared: apis and configs (the matrix), rounds, the load (connections, pipelining, duration_s and warmup_s in seconds), " +
	"the API container's log_driver (log_driver_chosen_by: the flag, or the engine's default) and log_opts as the docker CLI spells them (non_blocking: mode=non-blocking), the containers' limits " +
	"(limits.api_cpus and limits.loadgen_cpus in cores, 0 = no limit; memory in bytes; pids_limit), max_run_time_s, engine_cpu (whether the engine's own CPU " +
	"was measured), engine_cpu_how and engine_kind (whose processes were counted: docker or podman, as the engine reports itself in engine.kind), wrk (whether Debian's wrk loaded the API after the kit in each run of none) and wrk_command, and platform. versions maps each API to its runtime's and libraries' versions as its image records them; " +
	"unmeasured names what the bundle does not measure, so that a missing column is not read as a zero."

// DataPackage describes a qps bundle's files.
func DataPackage() bundle.DataPackage {
	return bundle.DescribeBundle(Name, "requests per second of an API under a closed-loop load in each access-log configuration, "+
		"every run's load, CPU and log read-back, per-second counts, and each condition's pooled figures beside the article's. "+bundle.SumsText,
		manifestText, tables, computedDocs)
}

// computedDocs are the descriptions that quote the kit's own constants; every other
// column is described by its row type's tags (schema.go).
var computedDocs = map[string]map[string]bundle.Doc{RunsFile: {
	"host_noisy":    {Text: fmt.Sprintf("true when other_cpu_cores is over %g: other work shared the host; the run is still data.", NoisyOtherCores)},
	"wrk_agreement": {Unit: "1", Text: fmt.Sprintf("requests_per_s_over_interval over wrk_requests_per_s: the kit's rate against an independent instrument's on the same API; missing without wrk's figure. Outside 1 ± %g the kit's rate is not confirmed by wrk (the run stays data; the summary says so).", WrkTolerance)},
	"generator_saturated": {Text: fmt.Sprintf("true when generator_cpu_cores reached %g of generator_cpu_limit_cores: the generator may have been the bottleneck, and the run is not data.",
		contract.SaturationShare)},
}, ConditionsFile: {
	"runs_wrk_agreeing": {Unit: "1", Text: fmt.Sprintf("Of runs_wrk, those whose wrk_agreement is within 1 ± %g.", WrkTolerance)},
}}
