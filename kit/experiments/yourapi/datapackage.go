package yourapi

import (
	"reflect"

	"github.com/logbench/logbench/kit/offline/bundle"
)

var tables = []bundle.Table{
	{File: RunsFile, Name: "runs", Row: reflect.TypeFor[RunRow](), Key: []string{"run_id"}, Verified: "verified", Superseded: "superseded",
		Refs: []bundle.Ref{{Columns: []string{"config"}, Table: ConditionsFile}},
		Text: "One row per run, failed and superseded ones too: the load as the generator measured it, the log lines read back and counted (not verified), " +
			"CPU inside and outside the service's container, and the figures derived from them (from requests on), which verify recomputes."},
	{File: SeriesFile, Name: "series", Row: reflect.TypeFor[SeriesRow](), Key: []string{"run_id", "second"},
		Refs: []bundle.Ref{{Columns: []string{"run_id"}, Table: RunsFile}},
		Text: "One row per second of each run's measured interval: the responses completed in it; a run's rows sum to its requests in runs.csv."},
	{File: ConditionsFile, Name: "conditions", Row: reflect.TypeFor[ConditionRow](), Key: []string{"config"},
		Text: "One row per logging configuration, in the manifest's order: figures pooled over its pooled runs (verified, lag-trusted, not superseded), and its cost against the baseline configuration."},
}

const manifestText = "The bundle's manifest: which experiment and kit wrote it, when, on which engine, with which of the kit's images, how far the matrix got, " +
	"and the parameters every run shared: the service's image (as named, and image_id, the ID every run ran), port and path, configs (name, env, cmd), " +
	"baseline, log_file (the directory the run's volume was mounted at, empty for none), rounds, the load (load closed or open; connections and pipelining, " +
	"or rate_rps, max_send_lag_p99_ms and retries; duration_s, warmup_s, ready_timeout_s), the service's log_driver and log_opts, the containers' limits, " +
	"hardening (read_only_root, user, cap_drop, cap_add, no_new_privileges, and relaxed: what the flags loosened), cpu_how and platform. " +
	"counted says that log lines are counted, not verified."

// DataPackage describes a your-api bundle's files.
func DataPackage() bundle.DataPackage {
	return bundle.DescribeBundle(Name, "a service the kit did not write, loaded in each logging configuration; every run's load, "+
		"log lines counted (not verified) and CPU, per-second counts, and each configuration's figures against the baseline. "+bundle.SumsText,
		manifestText, tables, nil)
}
