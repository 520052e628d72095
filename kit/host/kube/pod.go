package kube

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// FilesContainer is the name of the container that hands the run folder back (the
// kit's files program, `files idle`); no role is named so.
const FilesContainer = "kit-files"

// FilesImage is the kit's image whose files program the files container runs: every
// plan builds the load generator, and not every conductor's image carries the program
// (line-cost's Python and Node.js conductors are those runtimes' own images).
const FilesImage = "loadgen"

// filesCPU and filesMemory are its limits (and requests): it idles, and runs `files
// cat` once, at the end.
const (
	filesMilliCPU = 100
	filesMemory   = 32 << 20
)

// filesSpec is the files container of a Pod whose conductor is c: image (FilesImage
// as the node runs it; "" is the conductor's own), idling.
func filesSpec(c experiment.ContainerSpec, image string) experiment.ContainerSpec {
	return experiment.ContainerSpec{Role: FilesContainer, Image: cmp.Or(image, c.Image), Entrypoint: []string{"/files"}, Cmd: []string{"idle"},
		NanoCPUs: filesMilliCPU * 1_000_000, MemoryBytes: filesMemory}
}

// FilesEphemeral is the files container as an ephemeral container of a running Pod:
// the same image, folder and hardening, no resources (an ephemeral container has
// none; it runs within the Pod's); files is the image, as filesSpec takes it.
func FilesEphemeral(spec experiment.PodSpec, files string) (corev1.EphemeralContainer, error) {
	uid, gid, err := parseUser(spec.User)
	if err != nil {
		return corev1.EphemeralContainer{}, err
	}
	for _, c := range spec.Containers {
		if c.Role != spec.Conductor {
			continue
		}
		kc, err := container(spec, filesSpec(c, files), uid, gid)
		if err != nil {
			return corev1.EphemeralContainer{}, err
		}
		return corev1.EphemeralContainer{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: kc.Name, Image: kc.Image, Command: kc.Command,
			Args: kc.Args, VolumeMounts: kc.VolumeMounts, SecurityContext: kc.SecurityContext, ImagePullPolicy: kc.ImagePullPolicy,
			TerminationMessagePolicy: kc.TerminationMessagePolicy}}, nil
	}
	return corev1.EphemeralContainer{}, fmt.Errorf("the pod has no %s container to conduct it", spec.Conductor)
}

// runVolume is the emptyDir's name in the Pod.
const runVolume = "run"

// PodName is the Pod's name for a run: a DNS-1123 label made from the run's ID, with a
// hash of the ID so that two IDs that read alike stay apart.
func PodName(runID string) string {
	sum := sha256.Sum256([]byte(runID))
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, runID)
	const most = 63 - len("logbench-") - 1 - 8
	if len(safe) > most {
		safe = safe[:most]
	}
	return strings.Trim("logbench-"+strings.Trim(safe, "-"), "-") + "-" + hex.EncodeToString(sum[:4])
}

// PodFor is the Pod of one run on node in namespace: every container of the spec in
// its order (after the files container when the conductor is alone), all in the Pod's network namespace around one
// emptyDir mounted at the spec's path; requests equal to limits in every container, the
// kit's hardening unless the spec relaxes it; no restart, no service account token, no
// service links. What Kubernetes cannot express is refused as the container's
// experiment.CreateError, before anything is created. files is the files container's
// image, as filesSpec takes it.
func PodFor(spec experiment.PodSpec, node, namespace, files string) (*corev1.Pod, error) {
	if spec.Volume != "" {
		return nil, fmt.Errorf("the named volume %s: a Pod's run folder is an emptyDir on Kubernetes", spec.Volume)
	}
	uid, gid, err := parseUser(spec.User)
	if err != nil {
		return nil, err
	}
	var conductor *experiment.ContainerSpec
	for i := range spec.Containers {
		if spec.Containers[i].Role == spec.Conductor {
			conductor = &spec.Containers[i]
		}
	}
	if conductor == nil {
		return nil, fmt.Errorf("the pod has no %s container to conduct it", spec.Conductor)
	}
	no := false
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:        PodName(spec.RunID),
			Namespace:   namespace,
			Labels:      map[string]string{ManagedBy: "logbench", RunLabel: labelValue(spec.RunID)},
			Annotations: map[string]string{RunLabel: spec.RunID},
		},
		Spec: corev1.PodSpec{
			NodeName:                      node,
			RestartPolicy:                 corev1.RestartPolicyNever,
			AutomountServiceAccountToken:  &no,
			EnableServiceLinks:            &no,
			TerminationGracePeriodSeconds: new(int64(2)),
			SecurityContext: &corev1.PodSecurityContext{
				FSGroup:             gid,
				FSGroupChangePolicy: new(corev1.FSGroupChangeAlways),
				SeccompProfile:      &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
			},
			Volumes: []corev1.Volume{{Name: runVolume, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		},
	}
	// A conductor alone in its Pod gets the files container beside it from the start:
	// the Pod would end with the conductor. Any other Pod keeps running after the
	// conductor (its API serves on), and gets the files container as an ephemeral one
	// once the conductor has ended (FilesEphemeral), which asks no CPU of the node: a
	// run's limits may fill it (qps's API and load generator, one CPU each, on two).
	var containers []experiment.ContainerSpec
	if len(spec.Containers) == 1 {
		containers = append(containers, filesSpec(*conductor, files))
	}
	for _, c := range append(containers, spec.Containers...) {
		kc, err := container(spec, c, uid, gid)
		if err != nil {
			return nil, experiment.CreateError{Role: c.Role, Err: err}
		}
		pod.Spec.Containers = append(pod.Spec.Containers, kc)
	}
	return pod, nil
}

// container is one container of the Pod.
func container(spec experiment.PodSpec, c experiment.ContainerSpec, uid, gid *int64) (corev1.Container, error) {
	switch {
	case c.HostPIDs:
		return corev1.Container{}, fmt.Errorf("the host's PID namespace is the whole Pod's on Kubernetes (hostPID), not one container's")
	case c.HostNetwork:
		return corev1.Container{}, fmt.Errorf("the host's network is the whole Pod's on Kubernetes (hostNetwork), not one container's")
	case c.LogDriver != "" && c.LogDriver != contract.LogDriverCRI:
		return corev1.Container{}, fmt.Errorf("log driver %s: a Kubernetes node has one console path, the kubelet's CRI log (%s)", c.LogDriver, contract.LogDriverCRI)
	case len(c.LogOpts) > 0:
		return corev1.Container{}, fmt.Errorf("log options %s: the kubelet's CRI log takes none", experiment.FormatLogOpts(c.LogOpts))
	case c.NanoCPUs <= 0 || c.MemoryBytes <= 0:
		return corev1.Container{}, fmt.Errorf("no CPU or memory limit: a Pod is Guaranteed only with requests equal to limits for both in every container")
	case c.NanoCPUs%1_000_000 != 0:
		return corev1.Container{}, fmt.Errorf("CPU limit %d nanocpus: Kubernetes counts CPU in thousandths", c.NanoCPUs)
	}
	limits := corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewMilliQuantity(c.NanoCPUs/1_000_000, resource.DecimalSI),
		corev1.ResourceMemory: *resource.NewQuantity(c.MemoryBytes, resource.BinarySI),
	}
	mount := spec.MountPath
	if c.MountPath != "" {
		mount = c.MountPath
	}
	sc := &corev1.SecurityContext{
		RunAsUser:                uid,
		RunAsGroup:               gid,
		ReadOnlyRootFilesystem:   new(true),
		AllowPrivilegeEscalation: new(false),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
	if r := c.Relax; r != nil {
		if r.ImageUser {
			sc.RunAsUser, sc.RunAsGroup = nil, nil
		}
		sc.ReadOnlyRootFilesystem = new(!r.WritableRoot)
		sc.AllowPrivilegeEscalation = new(r.NewPrivileges)
		for _, cp := range r.CapAdd {
			sc.Capabilities.Add = append(sc.Capabilities.Add, corev1.Capability(strings.TrimPrefix(strings.ToUpper(cp), "CAP_")))
		}
	}
	kc := corev1.Container{
		Name:                     c.Role,
		Image:                    c.Image,
		Command:                  c.Entrypoint,
		Args:                     c.Cmd,
		ImagePullPolicy:          pullPolicy(c.Image),
		Resources:                corev1.ResourceRequirements{Limits: limits, Requests: limits.DeepCopy()},
		VolumeMounts:             []corev1.VolumeMount{{Name: runVolume, MountPath: mount}},
		SecurityContext:          sc,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
	}
	for _, e := range c.Env {
		name, value, _ := strings.Cut(e, "=")
		kc.Env = append(kc.Env, corev1.EnvVar{Name: name, Value: value})
	}
	return kc, nil
}

// parseUser reads "uid:gid" (or "uid"); "" leaves both to the image.
func parseUser(user string) (uid, gid *int64, err error) {
	if user == "" {
		return nil, nil, nil
	}
	u, g, hasGroup := strings.Cut(user, ":")
	id, err := strconv.ParseInt(u, 10, 64)
	if err != nil {
		return nil, nil, fmt.Errorf("user %q: Kubernetes takes numeric IDs", user)
	}
	uid = &id
	if hasGroup {
		gidv, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("user %q: Kubernetes takes numeric IDs", user)
		}
		gid = &gidv
	}
	return uid, gid, nil
}

// labelValue fits a run's ID into a label's value (63 characters of [A-Za-z0-9_.-],
// alphanumeric at both ends); the annotation keeps it whole.
func labelValue(runID string) string {
	v := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, runID)
	if len(v) > 63 {
		v = v[:63]
	}
	return strings.Trim(v, "_.-")
}

// pullPolicy: an image by digest (pushed to --registry) is pulled when the node lacks
// it, and a digest pins its content; any other is the node's already and never pulled.
func pullPolicy(image string) corev1.PullPolicy {
	if strings.Contains(image, "@sha256:") {
		return corev1.PullIfNotPresent
	}
	return corev1.PullNever
}
