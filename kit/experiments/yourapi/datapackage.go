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

var columnDocs = map[string]map[string]bundle.Doc{
	"": {
		"run_id": {Text: "The run's identifier, unique in the bundle."},
		"config": {Text: "The logging configuration's name, as --config gave it (the manifest's parameters.configs has its settings)."},
	},
	RunsFile: {
		"round":                        {Unit: "1", Text: "The round of the matrix, from 1."},
		"position":                     {Unit: "1", Text: "The run's place in its round, from 1 (the order rotates between rounds)."},
		"attempt":                      {Unit: "1", Text: "The attempt of this configuration in this round, from 1: an open-loop run whose send-lag p99 was over the bound is performed again."},
		"superseded":                   {Text: "true when the run was performed again (a later attempt replaces it): it counts in no figure."},
		"started_utc":                  {Text: "When the kit started the run, UTC, RFC 3339 with nanoseconds."},
		"wall_s":                       {Unit: "s", Text: "The kit's whole run, from creating the pod to removing it."},
		"load":                         {Text: "closed (keep-alive connections, as autocannon) or open (a fixed rate, latency from the scheduled send)."},
		"observed_failure":             {Text: "What the conductor and the engine saw go wrong (the service's container exited, no answer, a log directory that could not be read), reasons joined by \"; \"; empty when nothing did."},
		"ready_after_s":                {Unit: "s", Text: "How long the service took to answer the path with a 2xx status after its container started."},
		"measured_s":                   {Unit: "s", Text: "The measured interval after the warm-up: parameters.duration_s, or less when interrupted; 0 when the load never started."},
		"status_2xx":                   {Unit: "1", Text: "Responses with a 2xx status completed in the measured interval."},
		"non_2xx":                      {Unit: "1", Text: "Responses with another status in the measured interval; any makes the run not data."},
		"no_response":                  {Unit: "1", Text: "Requests of the measured interval that got no response (a failed or closed connection, a timeout); any makes the run not data."},
		"mean_ms":                      {Unit: "ms", Text: "Mean latency of the measured interval's responses: from the send (closed) or from the scheduled send (open) to the response's end; missing without responses."},
		"p50_ms":                       {Unit: "ms", Text: "Median latency, nearest rank; missing without responses."},
		"p90_ms":                       {Unit: "ms", Text: "90th-percentile latency, nearest rank; missing without responses."},
		"p99_ms":                       {Unit: "ms", Text: "99th-percentile latency, nearest rank; missing without responses."},
		"max_ms":                       {Unit: "ms", Text: "Largest latency of the measured interval; missing without responses."},
		"send_lag_p99_ms":              {Unit: "ms", Text: "Open load: 99th percentile of how late requests left against their schedule; missing for the closed load, which schedules nothing (bundles written before wrote 0)."},
		"generator_cpu_s":              {Unit: "s", Text: "CPU time the load generator used over the measured interval."},
		"generator_saturated":          {Text: "Closed load: true when the generator used at least its saturation share of the cores it may use: it may have been the bottleneck, and the run is not data."},
		"sent_total":                   {Unit: "1", Text: "Every request sent to the service in the run: the readiness probes it answered, the warm-up and the measured load (requests still in flight when the load stopped included); lines per request divide by it."},
		"console_read":                 {Text: "true when the service's stdout was read back through the engine's log API after the run (false with the none driver or a failed read)."},
		"console_lines":                {Unit: "1", Text: "Lines (newlines) of the service's stdout as the logging driver gave it back, the whole run; missing when it was not read (console_read false; 0 in bundles written before)."},
		"console_bytes":                {Unit: "bytes", Text: "Bytes of that stdout; missing when it was not read (0 in bundles written before)."},
		"file_read":                    {Text: "true when the log directory (parameters.log_file) was counted after the load."},
		"files":                        {Unit: "1", Text: "Regular files in the log directory, the conductor's own result left out; missing when the directory was not read (file_read false; 0 in bundles written before)."},
		"file_lines":                   {Unit: "1", Text: "Lines (newlines) in those files after the load and a short settle: what the service had written by then; missing when not read (0 in bundles written before)."},
		"file_bytes":                   {Unit: "bytes", Text: "Bytes in those files; missing when not read (0 in bundles written before)."},
		"cpu_measured":                 {Text: "true when the helper sampled the engine's and the service's processes before and after the measured interval."},
		"api_cpu_s":                    {Unit: "s", Text: "CPU time (user + system) of the service container's processes between the two samples: CPU inside the container; missing when not measured (cpu_measured false; 0 in bundles written before)."},
		"api_processes":                {Unit: "1", Text: "Processes of the service's container at the second sample."},
		"engine_cpu_s":                 {Unit: "s", Text: "CPU time of dockerd, containerd and the shims between the two samples: CPU outside the container, shipping its console among others; missing when not measured (0 in bundles written before)."},
		"cpu_interval_s":               {Unit: "s", Text: "Time between the two samples; missing when not measured (0 in bundles written before)."},
		"cpu_failure":                  {Text: "Why CPU could not be measured; empty when it was."},
		"host_cpu_busy_pct":            {Unit: "%", Text: "The whole host's busy CPU over the measured interval, in percent of all its CPUs; missing when not read."},
		"host_cpus":                    {Unit: "1", Text: "The host's CPUs as the conductor counted them; missing when not read (0 in bundles written before)."},
		"responses":                    {Unit: "1", Text: "Responses completed in the measured interval: the sum of the run's rows in series.csv."},
		"requests_per_s":               {Unit: "req/s", Text: "The mean of the whole seconds' counts in series.csv, as autocannon reports it (requests over measured_s when the interval is shorter than a second); missing without a measured interval (0 in bundles written before)."},
		"requests_per_s_over_interval": {Unit: "req/s", Text: "requests over measured_s; missing when measured_s is 0 (0 in bundles written before, which verify reads as missing)."},
		"lines_read":                   {Unit: "1", Text: "console_lines + file_lines: the lines read back of the sinks that were read (lines in bundles written before)."},
		"lines_per_request":            {Unit: "1", Text: "lines over sent_total; missing when nothing was read back."},
		"console_lines_per_request":    {Unit: "1", Text: "console_lines over sent_total; missing when the console was not read."},
		"file_lines_per_request":       {Unit: "1", Text: "file_lines over sent_total; missing without a log directory."},
		"bytes_per_request":            {Unit: "bytes", Text: "(console_bytes + file_bytes) over sent_total; missing when nothing was read back."},
		"api_cpu_cores":                {Unit: "cores", Text: "api_cpu_s over cpu_interval_s; missing when CPU was not measured."},
		"engine_cpu_cores":             {Unit: "cores", Text: "engine_cpu_s over cpu_interval_s; missing when CPU was not measured."},
		"api_cpu_us_per_request":       {Unit: "us", Text: "api_cpu_s over requests, in microseconds; missing when CPU was not measured or nothing was answered."},
		"engine_cpu_us_per_request":    {Unit: "us", Text: "engine_cpu_s over requests, in microseconds; missing likewise."},
		"cpu_us_per_request":           {Unit: "us", Text: "api_cpu_us_per_request + engine_cpu_us_per_request."},
		"other_cpu_cores":              {Unit: "cores", Text: "The host's busy CPU that neither the service, the engine nor the generator used: host_cpu_busy_pct / 100 x host_cpus - api_cpu_cores - engine_cpu_cores - generator_cpu_s / measured_s; missing without the host's or the CPU's figures."},
		"host_noisy":                   {Text: "true when other_cpu_cores is over 0.25: other work shared the host; the run is still data."},
		"trusted":                      {Text: "Open load: true when send_lag_p99_ms is within parameters.max_send_lag_p99_ms; always true for the closed load."},
		"mark":                         {Text: "Why the run is marked (it stays data): its lines per request off its configuration's median by more than 0.05 + 1%, or, in non-blocking mode, console lines short of the configuration's fullest run (dropped by the driver); empty when not."},
		"verified":                     {Text: "true when the run is data: failure is empty."},
		"failure":                      {Text: "Why the run is not data: observed_failure, no response, errors, non-2xx responses, a saturated generator; empty when it is."},
	},
	SeriesFile: {
		"second":    {Unit: "s", Text: "The second of the measured interval, from 0."},
		"responses": {Unit: "1", Text: "Responses completed in that second."},
	},
	ConditionsFile: {
		"setting":                    {Text: "The configuration's environment assignments (and command, after cmd:), as given."},
		"baseline":                   {Text: "true for the configuration every cost is set against (parameters.baseline)."},
		"runs":                       {Unit: "1", Text: "Runs of the configuration, failed and superseded ones included."},
		"runs_verified":              {Unit: "1", Text: "Runs that are data."},
		"runs_pooled":                {Unit: "1", Text: "Runs every figure pools: verified, lag-trusted, not superseded."},
		"runs_noisy":                 {Unit: "1", Text: "Verified runs on a noisy host (host_noisy)."},
		"runs_marked":                {Unit: "1", Text: "Runs with a mark (runs.csv)."},
		"requests_per_s":             {Unit: "req/s", Text: "Mean of the pooled runs' requests_per_s."},
		"requests_per_s_ci_low":      {Unit: "req/s", Text: "Lower end of the 95% Student-t interval of that mean; missing with fewer than 2 pooled runs."},
		"requests_per_s_ci_high":     {Unit: "req/s", Text: "Upper end of that interval."},
		"ratio_to_baseline":          {Unit: "1", Text: "requests_per_s over the baseline configuration's."},
		"p50_run_mean_ms":            {Unit: "ms", Text: "Mean of the pooled runs' p50_ms (not a pooled percentile)."},
		"p99_run_mean_ms":            {Unit: "ms", Text: "Mean of the pooled runs' p99_ms (not a pooled percentile)."},
		"lines_per_request":          {Unit: "1", Text: "Mean of the pooled runs' lines_per_request."},
		"console_lines_per_request":  {Unit: "1", Text: "Mean of the pooled runs' console_lines_per_request."},
		"file_lines_per_request":     {Unit: "1", Text: "Mean of the pooled runs' file_lines_per_request."},
		"bytes_per_request":          {Unit: "bytes", Text: "Mean of the pooled runs' bytes_per_request."},
		"api_cpu_cores":              {Unit: "cores", Text: "Mean of the pooled runs' api_cpu_cores."},
		"engine_cpu_cores":           {Unit: "cores", Text: "Mean of the pooled runs' engine_cpu_cores."},
		"api_cpu_us_per_request":     {Unit: "us", Text: "Mean of the pooled runs' api_cpu_us_per_request."},
		"engine_cpu_us_per_request":  {Unit: "us", Text: "Mean of the pooled runs' engine_cpu_us_per_request."},
		"cpu_us_per_request":         {Unit: "us", Text: "Mean of the pooled runs' cpu_us_per_request."},
		"cost_per_request_us":        {Unit: "us", Text: "cpu_us_per_request minus the baseline configuration's: what this configuration costs a request, inside and outside the container."},
		"cost_per_request_api_us":    {Unit: "us", Text: "api_cpu_us_per_request minus the baseline's: the cost inside the container."},
		"cost_per_request_engine_us": {Unit: "us", Text: "engine_cpu_us_per_request minus the baseline's: the cost in the engine."},
		"lines_steady":               {Text: "false when any run of the configuration is marked."},
	},
}

const manifestText = "The bundle's manifest: which experiment and kit wrote it, when, on which engine, with which of the kit's images, how far the matrix got, " +
	"and the parameters every run shared: the service's image (as named, and image_id, the ID every run ran), port and path, configs (name, env, cmd), " +
	"baseline, log_file (the directory the run's volume was mounted at, empty for none), rounds, the load (load closed or open; connections and pipelining, " +
	"or rate_rps, max_send_lag_p99_ms and retries; duration_s, warmup_s, ready_timeout_s), the service's log_driver and log_opts, the containers' limits, " +
	"hardening (read_only_root, user, cap_drop, cap_add, no_new_privileges, and relaxed: what the flags loosened), cpu_how and platform. " +
	"counted says that log lines are counted, not verified."

// DataPackage describes a your-api bundle's files.
func DataPackage() bundle.DataPackage {
	return bundle.Describe("logbench-your-api-bundle", "logbench your-api result bundle",
		"A result bundle of the your-api experiment: a service the kit did not write, loaded in each logging configuration; every run's load, "+
			"log lines counted (not verified) and CPU, per-second counts, and each configuration's figures against the baseline. "+
			"SHA256SUMS lists every file's SHA-256; `logbench verify` recomputes every derived figure from the rows. An empty CSV field is a missing value.",
		manifestText, tables, columnDocs)
}
