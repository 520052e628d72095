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

// The engine kinds whose processes the kit can identify (as kit/host/engine.KindOf
// names them).
const (
	EngineDocker = contract.EngineDocker
	EnginePodman = contract.EnginePodman
)

// IsEngine says whether a process, by its name (/proc/<pid>/comm, at most 15
// characters) and its command line's arguments, is one of the engine's of that kind
// (see contract.EngineProcessesOf).
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
// in the host's PID namespace): each one's CPU time and resident memory.
func SampleEngine(procRoot, kind string) (contract.EngineSample, error) {
	if contract.EngineProcessesOf(kind) == "" {
		return contract.EngineSample{}, fmt.Errorf("engine kind %q: the kit cannot identify its processes", kind)
	}
	fs, err := procfs.NewFS(procRoot)
	if err != nil {
		return contract.EngineSample{}, err
	}
	procs, err := fs.AllProcs()
	if err != nil {
		return contract.EngineSample{}, err
	}
	out := contract.EngineSample{UnixNano: time.Now().UnixNano()}
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
		out.Processes = append(out.Processes, processOf(p.PID, st))
	}
	sort.Slice(out.Processes, func(i, j int) bool { return out.Processes[i].PID < out.Processes[j].PID })
	if len(out.Processes) == 0 {
		return out, fmt.Errorf("none of %s's processes (%s) in %s: is this container in the host's PID namespace?", kind, contract.EngineProcessesOf(kind), procRoot)
	}
	return out, nil
}

// SamplePod reads the processes of the container whose ID begins with containerID:
// those whose /proc/<pid>/cgroup names it (readable for any process, whatever its
// user). A foreign image reports nothing of itself; its CPU inside the container is
// its processes' user + system time.
func SamplePod(procRoot, containerID string) ([]contract.EngineProcess, error) {
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
	var out []contract.EngineProcess
	for _, p := range procs {
		groups, err := p.Cgroups()
		if err != nil || !inContainer(groups, containerID) {
			continue
		}
		st, err := p.Stat()
		if err != nil {
			continue
		}
		out = append(out, processOf(p.PID, st))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	if len(out) == 0 {
		return nil, fmt.Errorf("no process in %s belongs to container %s", procRoot, containerID)
	}
	return out, nil
}

// processOf is a process's CPU time so far and its resident memory now.
func processOf(pid int, st procfs.ProcStat) contract.EngineProcess {
	return contract.EngineProcess{PID: pid, Comm: st.Comm, CPUS: st.CPUTime(), RSSBytes: int64(st.ResidentMemory())}
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

// EngineDelta is the engine's CPU between two samples.
func EngineDelta(before, after contract.EngineSample) contract.EngineCPU {
	out := contract.EngineCPU{Before: before, After: after, ByComm: map[string]float64{}, IntervalS: float64(after.UnixNano-before.UnixNano) / 1e9}
	was := map[int]contract.EngineProcess{}
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
	podWas := map[int]contract.EngineProcess{}
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

func getEngineSample(ctx context.Context, url string) (contract.EngineSample, error) {
	var s contract.EngineSample
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
func FetchEngineSample(ctx context.Context, url string) (contract.EngineSample, error) {
	return getEngineSample(ctx, url)
}
