package kube

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Records are a run's rows of pods.csv: each container of the Pod as the API server
// last returned it, regular containers in the spec's order, then ephemeral ones. None
// for no Pod.
func Records(runID string, p *corev1.Pod) []bundle.PodRow {
	if p == nil {
		return nil
	}
	base := bundle.PodRow{RunID: runID, Pod: p.Name, PodUID: string(p.UID), Node: p.Spec.NodeName, QOSClass: string(p.Status.QOSClass),
		CreatedUTC: stamp(p.CreationTimestamp)}
	statuses := map[string]corev1.ContainerStatus{}
	for _, s := range append(append([]corev1.ContainerStatus(nil), p.Status.ContainerStatuses...), p.Status.EphemeralContainerStatuses...) {
		statuses[s.Name] = s
	}
	var rows []bundle.PodRow
	add := func(name, image string, res corev1.ResourceRequirements, ephemeral bool) {
		r := base
		r.Container, r.Image, r.Ephemeral = name, image, ephemeral
		r.CPURequest, r.CPULimit = cores(res.Requests), cores(res.Limits)
		r.MemoryRequest, r.MemoryLimit = memory(res.Requests), memory(res.Limits)
		r.ExitCode = bundle.None
		if s, ok := statuses[name]; ok {
			r.ImageID = s.ImageID
			switch st := s.State; {
			case st.Terminated != nil:
				r.StartedUTC, r.FinishedUTC = stamp(st.Terminated.StartedAt), stamp(st.Terminated.FinishedAt)
				r.ExitCode, r.Reason = bundle.Opt(st.Terminated.ExitCode), st.Terminated.Reason
			case st.Running != nil:
				r.StartedUTC = stamp(st.Running.StartedAt)
			case st.Waiting != nil:
				r.Reason = st.Waiting.Reason
			}
		}
		rows = append(rows, r)
	}
	for _, c := range p.Spec.Containers {
		add(c.Name, c.Image, c.Resources, false)
	}
	for _, c := range p.Spec.EphemeralContainers {
		add(c.Name, c.Image, c.Resources, true)
	}
	return rows
}

// stamp is t in RFC 3339, UTC, as the API server keeps it (to the second); "" for none.
func stamp(t metav1.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func cores(l corev1.ResourceList) bundle.Opt {
	if q, ok := l[corev1.ResourceCPU]; ok {
		return bundle.Opt(float64(q.MilliValue()) / 1000)
	}
	return bundle.None
}

func memory(l corev1.ResourceList) bundle.Opt {
	if q, ok := l[corev1.ResourceMemory]; ok {
		return bundle.Opt(float64(q.Value()))
	}
	return bundle.None
}
