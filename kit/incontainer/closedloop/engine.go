package closedloop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/procfs"
)

// The engine's own CPU. Shipping a container's stdout is work for the engine's
// processes (dockerd copies and encodes every line, the container's shim relays the
// pipe), which is not in the container's cgroup (moby#37471). A helper container in
// the host's PID namespace reads their CPU time from /proc before and after the
// measured interval, and the conductor asks it over the pod's loopback.

// EngineProcess is one of the engine's processes and its CPU time so far.
type EngineProcess struct {
	PID  int     `json:"pid"`
	Comm string  `json:"comm"`
	CPUS float64 `json:"cpu_s"` // user + system since the process started
}

// EngineSample is every engine process at one moment.
type EngineSample struct {
	UnixNano  int64           `json:"unix_ns"`
	Processes []EngineProcess `json:"processes"`
}

// IsEngine says whether a process name (/proc/<pid>/comm, at most 15 characters) is
// one of the engine's: dockerd, containerd, and the shims (containerd-shim,
// containerd-shim-runc-v2, both "containerd-shim" as comm).
func IsEngine(comm string) bool {
	return comm == "dockerd" || strings.HasPrefix(comm, "containerd")
}

// SampleEngine reads the engine's processes under procRoot ("/proc" in the host's PID
// namespace).
func SampleEngine(procRoot string) (EngineSample, error) {
	fs, err := procfs.NewFS(procRoot)
	if err != nil {
		return EngineSample{}, err
	}
	procs, err := fs.AllProcs()
	if err != nil {
		return EngineSample{}, err
	}
	out := EngineSample{UnixNano: time.Now().UnixNano()}
	for _, p := range procs {
		st, err := p.Stat()
		if err != nil || !IsEngine(st.Comm) {
			continue // gone since listed, or not the engine's
		}
		out.Processes = append(out.Processes, EngineProcess{PID: p.PID, Comm: st.Comm, CPUS: st.CPUTime()})
	}
	sort.Slice(out.Processes, func(i, j int) bool { return out.Processes[i].PID < out.Processes[j].PID })
	if len(out.Processes) == 0 {
		return out, fmt.Errorf("no dockerd or containerd process in %s: is this container in the host's PID namespace?", procRoot)
	}
	return out, nil
}

// EngineHandler serves GET /sample: SampleEngine(procRoot) as JSON.
func EngineHandler(procRoot string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sample", func(w http.ResponseWriter, r *http.Request) {
		s, err := SampleEngine(procRoot)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(s)
	})
	return mux
}

// EngineCPU is the engine's CPU over the measured interval.
type EngineCPU struct {
	IntervalS float64 `json:"interval_s"`
	// CPUS is the CPU time the engine's processes used between the two samples, summed
	// over the processes present in both.
	CPUS float64 `json:"cpu_s"`
	// ByComm splits CPUS by process name.
	ByComm  map[string]float64 `json:"by_comm"`
	Before  EngineSample       `json:"before"`
	After   EngineSample       `json:"after"`
	Failure string             `json:"failure,omitempty"`
}

// EngineDelta is the engine's CPU between two samples.
func EngineDelta(before, after EngineSample) EngineCPU {
	out := EngineCPU{Before: before, After: after, ByComm: map[string]float64{}, IntervalS: float64(after.UnixNano-before.UnixNano) / 1e9}
	was := map[int]EngineProcess{}
	for _, p := range before.Processes {
		was[p.PID] = p
	}
	for _, p := range after.Processes {
		if b, ok := was[p.PID]; ok && b.Comm == p.Comm {
			d := max(0, p.CPUS-b.CPUS)
			out.CPUS += d
			out.ByComm[p.Comm] += d
		}
	}
	return out
}

func getEngineSample(ctx context.Context, url string) (EngineSample, error) {
	var s EngineSample
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return s, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return s, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return s, json.NewDecoder(resp.Body).Decode(&s)
}
