package contract

// The your-api experiment's document: what its conductor (cmd/incontainer/qpsload
// -foreign, with kit/incontainer/foreign) leaves in the run's volume after loading a
// service the kit did not write.

// The load shapes of ForeignResult.Load.
const (
	LoadClosed = "closed"
	LoadOpen   = "open"
)

// ForeignReady is how the service came to answer.
type ForeignReady struct {
	AfterS float64 `json:"after_s"`
	// Probes are the requests that reached the service until it answered 2xx: each
	// got a response and may be logged. Attempts also counts those that found nothing
	// listening or got no answer.
	Probes     int64  `json:"probes"`
	Attempts   int64  `json:"attempts"`
	LastStatus int    `json:"last_status,omitempty"`
	LastError  string `json:"last_error,omitempty"`
	OK         bool   `json:"ok"`
}

// OpenLoopResult is the open loop's measured interval: latency from each request's
// scheduled send, and how late the sends left (send lag).
type OpenLoopResult struct {
	RateRPS     float64 `json:"rate_rps"`
	DurationS   float64 `json:"duration_s"`
	StartUnixNs int64   `json:"start_unix_ns"`
	Scheduled   int64   `json:"scheduled"`
	Status2xx   int64   `json:"status_2xx"`
	Non2xx      int64   `json:"non_2xx"`
	Errors      int64   `json:"errors"`
	ErrorSample string  `json:"error_sample,omitempty"`
	// RequestsPerSecond counts the responses of each second of the schedule.
	RequestsPerSecond []int64 `json:"requests_per_second"`
	LatencyMeanMs     float64 `json:"latency_mean_ms"`
	LatencyP50Ms      float64 `json:"latency_p50_ms"`
	LatencyP90Ms      float64 `json:"latency_p90_ms"`
	LatencyP99Ms      float64 `json:"latency_p99_ms"`
	LatencyMaxMs      float64 `json:"latency_max_ms"`
	SendLagP50Ms      float64 `json:"send_lag_p50_ms"`
	SendLagP99Ms      float64 `json:"send_lag_p99_ms"`
	SendLagMaxMs      float64 `json:"send_lag_max_ms"`
	// QueueWaitP99Ms is the p99 of the requests' waits for their keep-alive connection
	// past their schedule (part of their latency); Connections how many carried the load
	// (0: a new connection per request).
	QueueWaitP99Ms float64 `json:"queue_wait_p99_ms,omitempty"`
	// NetLatencyP99Ms is the p99 of each response's latency less its own send lag: what
	// the service (and the wait for its connection) took, without the generator's
	// lateness. A step that misses its target only with the lag counted is the
	// generator's limit.
	NetLatencyP99Ms float64 `json:"net_latency_p99_ms,omitempty"`
	NetLatencyP50Ms float64 `json:"net_latency_p50_ms,omitempty"`
	Connections     int     `json:"connections,omitempty"`
	GeneratorCPUS   float64 `json:"generator_cpu_s"`
}

// LogFile is one file of the log directory as counted after the run.
type LogFile struct {
	Path  string `json:"path"`
	Lines int64  `json:"lines"`
	Bytes int64  `json:"bytes"`
}

// ForeignResult is the run's result file.
type ForeignResult struct {
	Load  string       `json:"load"`
	Ready ForeignReady `json:"ready"`
	// Closed is the closed loop's run, its warm-up on the same connections.
	Closed *ClosedLoopResult `json:"closed,omitempty"`
	Open   *OpenLoopResult   `json:"open,omitempty"`
	// SentTotal is every request sent to the service: the probes it answered,
	// warm-up and load.
	SentTotal int64 `json:"sent_total"`
	// Files are the log directory's files (nil: no log directory), FilesFailure why
	// they could not all be read; an empty list is a directory counted empty.
	Files        []LogFile   `json:"files"`
	FilesFailure string      `json:"files_failure,omitempty"`
	Engine       *EngineCPU  `json:"engine,omitempty"`
	Host         *HostSample `json:"host,omitempty"`
	HostCPUs     int         `json:"host_cpus"`
	Failure      string      `json:"failure,omitempty"`
}
