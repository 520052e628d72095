package closedloop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/prometheus/procfs"
)

// The engine's own CPU. Shipping a container's stdout is work for the engine's
// processes (Docker: dockerd copies and encodes every line, the container's shim relays
// the pipe; Podman: the container's conmon writes every line to the log driver), which
// is not in the container's cgroup (moby#37471). A helper container in
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
	// Pod are the processes of one container of the pod (the foreign API's), when the
	// helper was asked for them (EngineHandlerWithPod).
	Pod []EngineProcess `json:"pod,omitempty"`
}

// The engine kinds whose processes the kit can identify (as kit/host/engine.KindOf
// names them).
const (
	EngineDocker = contract.EngineDocker
	EnginePodman = contract.EnginePodman
)

// EngineProcessesOf says which processes are the engine's, by kind: for Docker
// dockerd, containerd and the shims (containerd-shim, containerd-shim-runc-v2, both
// "containerd-shim" as comm); for Podman each container's conmon (which carries its
// stdout to the log driver) and the API service (podman system service), not other
// podman commands. "" for a kind it does not know.
func EngineProcessesOf(kind string) string {
	switch kind {
	case EngineDocker:
		return "dockerd, containerd and the shims (containerd-shim*)"
	case EnginePodman:
		return "conmon and the service (podman system service)"
	}
	return ""
}

// IsEngine says whether a process, by its name (/proc/<pid>/comm, at most 15
// characters) and its command line's arguments, is one of the engine's of that kind
// (see EngineProcessesOf).
func IsEngine(kind, comm string, cmdline []string) bool {
	switch kind {
	case EngineDocker:
		return comm == "dockerd" || strings.HasPrefix(comm, "containerd")
	case EnginePodman:
		if comm == "conmon" {
			return true
		}
		if comm != "podman" {
			return false
		}
		for i, arg := range cmdline {
			if arg == "system" && i+1 < len(cmdline) && cmdline[i+1] == "service" {
				return true
			}
		}
	}
	return false
}

// SampleEngine reads the processes of an engine of that kind under procRoot ("/proc"
// in the host's PID namespace).
func SampleEngine(procRoot, kind string) (EngineSample, error) {
	if EngineProcessesOf(kind) == "" {
		return EngineSample{}, fmt.Errorf("engine kind %q: the kit cannot identify its processes", kind)
	}
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
		if err != nil {
			continue // gone since listed
		}
		var cmdline []string
		if st.Comm == "podman" {
			cmdline, _ = p.CmdLine()
		}
		if !IsEngine(kind, st.Comm, cmdline) {
			continue
		}
		out.Processes = append(out.Processes, EngineProcess{PID: p.PID, Comm: st.Comm, CPUS: st.CPUTime()})
	}
	sort.Slice(out.Processes, func(i, j int) bool { return out.Processes[i].PID < out.Processes[j].PID })
	if len(out.Processes) == 0 {
		return out, fmt.Errorf("none of %s's processes (%s) in %s: is this container in the host's PID namespace?", kind, EngineProcessesOf(kind), procRoot)
	}
	return out, nil
}

// SamplePod reads the processes of the container whose ID begins with containerID:
// those whose /proc/<pid>/cgroup names it (readable for any process, whatever its
// user). A foreign image reports nothing of itself; its CPU inside the container is
// its processes' user + system time.
func SamplePod(procRoot, containerID string) ([]EngineProcess, error) {
	if len(containerID) < 12 {
		return nil, fmt.Errorf("container ID %q: want at least 12 hex digits", containerID)
	}
	fs, err := procfs.NewFS(procRoot)
	if err != nil {
		return nil, err
	}
	procs, err := fs.AllProcs()
	if err != nil {
		return nil, err
	}
	var out []EngineProcess
	for _, p := range procs {
		groups, err := p.Cgroups()
		if err != nil || !inContainer(groups, containerID) {
			continue
		}
		st, err := p.Stat()
		if err != nil {
			continue
		}
		out = append(out, EngineProcess{PID: p.PID, Comm: st.Comm, CPUS: st.CPUTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	if len(out) == 0 {
		return nil, fmt.Errorf("no process in %s belongs to container %s", procRoot, containerID)
	}
	return out, nil
}

func inContainer(groups []procfs.Cgroup, id string) bool {
	for _, g := range groups {
		if strings.Contains(g.Path, id) {
			return true
		}
	}
	return false
}

// EngineHandler serves GET /sample: SampleEngine(procRoot, kind) as JSON.
func EngineHandler(procRoot, kind string) http.Handler {
	return EngineHandlerWithPod(procRoot, kind, "")
}

// EngineHandlerWithPod is EngineHandler, each sample also holding the processes of the
// container podID ("": none).
func EngineHandlerWithPod(procRoot, kind, podID string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sample", func(w http.ResponseWriter, r *http.Request) {
		s, err := SampleEngine(procRoot, kind)
		if err == nil && podID != "" {
			s.Pod, err = SamplePod(procRoot, podID)
		}
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
	ByComm map[string]float64 `json:"by_comm"`
	// PodCPUS is the CPU time the sampled container's processes used between the two
	// samples: those present in both, and those started in between whole.
	PodCPUS float64      `json:"pod_cpu_s,omitempty"`
	Before  EngineSample `json:"before"`
	After   EngineSample `json:"after"`
	Failure string       `json:"failure,omitempty"`
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
	podWas := map[int]EngineProcess{}
	for _, p := range before.Pod {
		podWas[p.PID] = p
	}
	for _, p := range after.Pod {
		b, ok := podWas[p.PID]
		switch {
		case !ok:
			out.PodCPUS += p.CPUS
		case b.Comm == p.Comm:
			out.PodCPUS += max(0, p.CPUS-b.CPUS)
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

// FetchEngineSample asks the engine CPU helper at url (its /sample) for a sample.
func FetchEngineSample(ctx context.Context, url string) (EngineSample, error) {
	return getEngineSample(ctx, url)
}
