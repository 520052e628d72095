package verify

import (
	"fmt"
	"slices"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// qosClasses are the QoS classes the API server gives a Pod.
var qosClasses = []string{"Guaranteed", "Burstable", "BestEffort"}

// Pods checks pods.csv, the engine's own account of each run's Pod that a cluster's
// bundle holds: listed in SHA256SUMS and matching it, parsed strictly, every row a run
// of the bundle (runs) and a container once, and each record one that could have
// happened: a known QoS class, one UID a Pod and one Pod a run, and in a Guaranteed Pod
// every regular container's limits equal to its requests, which is what the class
// means. A bundle of a cluster without the table was written before the kit kept it.
func Pods(res *Result, files map[string][]byte, runs map[string]bool) {
	const file = bundle.PodFile
	body, ok := files[file]
	if !ok {
		if res.Common != nil && res.Common.Engine.Kind == "kubernetes" {
			res.Weakened = append(res.Weakened, "the Pods' own account (UID, QoS class, admitted limits) was not recorded: a bundle written before the kit kept "+file)
		}
		return
	}
	d, ok := decodeListed[bundle.PodRow](res, files, file, body)
	if !ok {
		return
	}
	for _, col := range d.Missing {
		res.Problem(Problem{File: file, Column: col, Msg: "missing column"})
	}
	if len(d.Errs) > 0 || len(d.Missing) > 0 {
		return
	}
	seen := map[[2]string]bool{}
	uidOf, runOf := map[string]string{}, map[string]string{}
	for i, r := range d.Rows {
		line := d.Lines[i]
		problem := func(col, msg string) {
			res.Problem(Problem{File: file, Line: line, Key: "run " + Short(r.RunID) + " " + r.Container, Column: col, Msg: msg})
		}
		if !runs[r.RunID] {
			problem("run_id", "no such run in runs.csv")
		}
		if k := [2]string{r.RunID, r.Container}; seen[k] {
			problem("container", "the run's container twice")
		} else {
			seen[k] = true
		}
		if !slices.Contains(qosClasses, r.QOSClass) {
			problem("qos_class", fmt.Sprintf("%q is no QoS class (%v)", r.QOSClass, qosClasses))
		}
		if r.PodUID == "" {
			problem("pod_uid", "empty: the API server gives every Pod a UID")
		}
		if u, ok := uidOf[r.RunID]; ok && u != r.PodUID {
			problem("pod_uid", "the run's containers name two Pods")
		}
		uidOf[r.RunID] = r.PodUID
		if other, ok := runOf[r.PodUID]; ok && other != r.RunID {
			problem("pod_uid", "the Pod of run "+Short(other)+" too")
		}
		runOf[r.PodUID] = r.RunID
		if r.QOSClass == "Guaranteed" && !r.Ephemeral {
			if !r.CPULimit.Present() || !r.MemoryLimit.Present() || !Same(float64(r.CPULimit), float64(r.CPURequest)) || !Same(float64(r.MemoryLimit), float64(r.MemoryRequest)) {
				problem("cpu_limit", fmt.Sprintf("a Guaranteed Pod's container with requests %s CPU, %s B and limits %s CPU, %s B: the class needs them equal",
					Number(float64(r.CPURequest)), Number(float64(r.MemoryRequest)), Number(float64(r.CPULimit)), Number(float64(r.MemoryLimit))))
			}
		}
	}
}

// RunPods is Pods over the runs of a bundle's rows, each named by id.
func RunPods[R any](res *Result, files map[string][]byte, rows []R, id func(R) string) {
	runs := map[string]bool{}
	for _, r := range rows {
		runs[id(r)] = true
	}
	Pods(res, files, runs)
}
