package kube

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

const node = "n1"

// spec is a run of two containers, the API owning the network and the conductor
// joining it, as the experiments describe theirs.
func spec() experiment.PodSpec {
	return experiment.PodSpec{RunID: "go_none_r1.A", Conductor: "loadgen", MountPath: contract.RunDir, ResultPath: contract.RunDir + "/result.json",
		User: contract.User, PidsLimit: 128, CollectLogs: []string{"api"},
		Containers: []experiment.ContainerSpec{
			{Role: "api", Image: "docker.io/logbench/api:abc", Cmd: []string{"-mode", "none"}, NanoCPUs: 250_000_000, MemoryBytes: 128 << 20, Env: []string{"A=b=c"}},
			{Role: "loadgen", Image: "docker.io/logbench/loadgen:def", NanoCPUs: 500_000_000, MemoryBytes: 256 << 20},
		}}
}

func TestPodIsGuaranteedHardenedAndSharesItsFolder(t *testing.T) {
	pod, err := PodFor(spec(), node, "ns", "")
	if err != nil {
		t.Fatal(err)
	}
	s := pod.Spec
	if pod.Namespace != "ns" || s.NodeName != node || s.RestartPolicy != corev1.RestartPolicyNever || *s.AutomountServiceAccountToken || *s.EnableServiceLinks {
		t.Errorf("pod: namespace %s, node %s, restart %s, token %v, links %v", pod.Namespace, s.NodeName, s.RestartPolicy, *s.AutomountServiceAccountToken, *s.EnableServiceLinks)
	}
	if s.HostNetwork || s.HostPID || s.ShareProcessNamespace != nil {
		t.Error("the Pod shares the host's namespaces or its processes")
	}
	if len(s.Volumes) != 1 || s.Volumes[0].EmptyDir == nil || s.Volumes[0].EmptyDir.Medium != "" {
		t.Errorf("want one emptyDir on the node's disk: %+v", s.Volumes)
	}
	if g := s.SecurityContext.FSGroup; g == nil || *g != 65532 {
		t.Errorf("fsGroup %v, want 65532 so the kit's user writes the folder", g)
	}
	var names []string
	for _, c := range s.Containers {
		names = append(names, c.Name)
		if !equal(c.Resources.Requests, c.Resources.Limits) || c.Resources.Limits.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s: requests %v, limits %v: want equal and both set", c.Name, c.Resources.Requests, c.Resources.Limits)
		}
		sc := c.SecurityContext
		if *sc.RunAsUser != 65532 || *sc.RunAsGroup != 65532 || !*sc.ReadOnlyRootFilesystem || *sc.AllowPrivilegeEscalation ||
			len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" || len(sc.Capabilities.Add) != 0 || sc.Privileged != nil {
			t.Errorf("%s: not hardened: %+v", c.Name, sc)
		}
		if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != contract.RunDir || c.VolumeMounts[0].ReadOnly {
			t.Errorf("%s: mounts %+v, want the run folder at %s", c.Name, c.VolumeMounts, contract.RunDir)
		}
		if c.ImagePullPolicy != corev1.PullNever {
			t.Errorf("%s: pull policy %s: the kit's images are never pulled", c.Name, c.ImagePullPolicy)
		}
	}
	if strings.Join(names, ",") != "api,loadgen" {
		t.Errorf("containers %v: want the spec's in order", names)
	}
	api := s.Containers[0]
	if api.Resources.Limits.Cpu().MilliValue() != 250 || api.Resources.Limits.Memory().Value() != 128<<20 {
		t.Errorf("api limits %v", api.Resources.Limits)
	}
	if api.Image != "docker.io/logbench/api:abc" || strings.Join(api.Args, " ") != "-mode none" || api.Command != nil || api.Env[0].Name != "A" || api.Env[0].Value != "b=c" {
		t.Errorf("api: %+v", api)
	}
	// The files container comes as an ephemeral one, asking no CPU of the node; a
	// conductor alone has it beside itself from the start.
	files, err := FilesEphemeral(spec(), "")
	if err != nil || files.Image != "docker.io/logbench/loadgen:def" || strings.Join(files.Command, " ") != "/files" || strings.Join(files.Args, " ") != "idle" ||
		files.VolumeMounts[0].MountPath != contract.RunDir || !*files.SecurityContext.ReadOnlyRootFilesystem || len(files.SecurityContext.Capabilities.Drop) != 1 {
		t.Errorf("files container: %+v (%v), want the conductor's image idling, hardened, in the run folder", files, err)
	}
	alone := spec()
	alone.Containers = alone.Containers[1:]
	if pod, err := PodFor(alone, node, "ns", ""); err != nil || len(pod.Spec.Containers) != 2 || pod.Spec.Containers[0].Name != FilesContainer {
		t.Errorf("a conductor alone: %v", err)
	}
	if !strings.HasPrefix(pod.Name, "logbench-go-none-r1-a-") || len(pod.Name) > 63 || pod.Annotations[RunLabel] != "go_none_r1.A" {
		t.Errorf("name %s, annotation %q", pod.Name, pod.Annotations[RunLabel])
	}
}

func equal(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

func TestPodRefusesWhatKubernetesCannotGive(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*experiment.ContainerSpec)
		want   string
	}{
		{"no limit", func(c *experiment.ContainerSpec) { c.NanoCPUs = 0 }, "Guaranteed"},
		{"host PIDs", func(c *experiment.ContainerSpec) { c.HostPIDs = true }, "hostPID"},
		{"host network", func(c *experiment.ContainerSpec) { c.HostNetwork = true }, "hostNetwork"},
		{"log driver", func(c *experiment.ContainerSpec) { c.LogDriver = "json-file" }, "CRI log"},
		{"log options", func(c *experiment.ContainerSpec) { c.LogOpts = map[string]string{"mode": "non-blocking"} }, "takes none"},
		{"odd CPU", func(c *experiment.ContainerSpec) { c.NanoCPUs = 333_333_333 }, "thousandths"},
	} {
		s := spec()
		tc.change(&s.Containers[0])
		_, err := PodFor(s, node, "ns", "")
		var refused experiment.CreateError
		if !errors.As(err, &refused) || refused.Role != "api" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want the api container refused for %q", tc.name, err, tc.want)
		}
	}
	s := spec()
	s.Containers[0].LogDriver = contract.LogDriverCRI
	if _, err := PodFor(s, node, "ns", ""); err != nil {
		t.Errorf("the CRI log driver: %v", err)
	}
}

// fakeCluster is a cluster of one node whose API server sets each created Pod's QoS
// class to qos and its status to what status makes of it.
func fakeCluster(t *testing.T, qos corev1.PodQOSClass, status func(*corev1.Pod)) (*Cluster, *fake.Clientset) {
	t.Helper()
	cs := fake.NewClientset(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
			Images: []corev1.ContainerImage{{Names: []string{"docker.io/logbench/api:abc"}}}}})
	cs.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		p := a.(k8stesting.CreateAction).GetObject().(*corev1.Pod)
		p.Status.QOSClass = qos
		if status != nil {
			status(p)
		}
		return false, nil, nil
	})
	k := NewClient(cs, nil, "ctx", "ns").On(node)
	k.exec = func(_ context.Context, pod, container string, cmd []string, out *experiment.LimitedBuffer) error {
		if container != FilesContainer || strings.Join(cmd, " ") != "/files cat "+contract.RunDir+"/result.json" {
			t.Errorf("exec %s %v", container, cmd)
		}
		out.WriteString(`{"ok":true}`)
		return nil
	}
	return k, cs
}

func gone(t *testing.T, cs *fake.Clientset) {
	t.Helper()
	list, err := cs.CoreV1().Pods("ns").List(context.Background(), metav1.ListOptions{})
	if err != nil || len(list.Items) != 0 {
		t.Errorf("the namespace still holds %d Pods (%v)", len(list.Items), err)
	}
}

func TestRunPodRefusesAPodThatIsNotGuaranteed(t *testing.T) {
	k, cs := fakeCluster(t, corev1.PodQOSBurstable, nil)
	res, err := k.RunPod(context.Background(), spec(), io.Discard)
	if err != nil || !strings.Contains(res.Failure, "Burstable QoS class, not Guaranteed") || res.Result != nil {
		t.Errorf("failure %q, error %v: want the Pod refused", res.Failure, err)
	}
	if len(res.Records) == 0 || res.Records[0].QOSClass != "Burstable" {
		t.Errorf("records %+v: want the refused Pod's class recorded", res.Records)
	}
	gone(t, cs)
}

func TestRunPodReadsTheResultExitsAndConsole(t *testing.T) {
	k, cs := fakeCluster(t, corev1.PodQOSGuaranteed, func(p *corev1.Pod) {
		p.Status.Phase = corev1.PodRunning
		p.Status.ContainerStatuses = []corev1.ContainerStatus{
			{Name: FilesContainer, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
			{Name: "api", ContainerID: "containerd://a", ImageID: "sha256:aaa", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
			{Name: "loadgen", ContainerID: "containerd://l", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0}}},
		}
	})
	k.expect["docker.io/logbench/api:abc"] = "sha256:aaa"
	res, err := k.RunPod(context.Background(), spec(), io.Discard)
	if err != nil || res.Failure != "" {
		t.Fatalf("failure %q, error %v", res.Failure, err)
	}
	if string(res.Result) != `{"ok":true}` {
		t.Errorf("result %q", res.Result)
	}
	if len(res.Exits) != 2 || !res.Exits[0].Running || res.Exits[0].ID != "containerd://a" || res.Exits[1].Running || res.Exits[1].ExitCode != 0 {
		t.Errorf("exits %+v", res.Exits)
	}
	if string(res.Logs["api"]) != "fake logs" { // client-go's fake log body
		t.Errorf("api console %q", res.Logs["api"])
	}
	// The run's record (pods.csv) is the Pod as the API server returned it: its class,
	// each container's admitted limits, the image the node ran, how each container is.
	byName := map[string]bundle.PodRow{}
	for _, r := range res.Records {
		if r.RunID != spec().RunID || r.QOSClass != "Guaranteed" || r.Node != node {
			t.Errorf("record %+v: want the run's, Guaranteed, on %s", r, node)
		}
		byName[r.Container] = r
	}
	api, loadgen := byName["api"], byName["loadgen"]
	if api.CPULimit != 0.25 || api.CPURequest != 0.25 || api.MemoryLimit != 128<<20 || api.MemoryRequest != 128<<20 || api.ImageID != "sha256:aaa" || api.ExitCode.Present() {
		t.Errorf("the api container's record %+v", api)
	}
	if loadgen.CPULimit != 0.5 || !loadgen.ExitCode.Present() || loadgen.ExitCode != 0 {
		t.Errorf("the loadgen container's record %+v", loadgen)
	}
	gone(t, cs)
}

func TestRunPodNamesTheKillAndTheEviction(t *testing.T) {
	k, cs := fakeCluster(t, corev1.PodQOSGuaranteed, func(p *corev1.Pod) {
		p.Status.ContainerStatuses = []corev1.ContainerStatus{
			{Name: "api", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}}},
			{Name: "loadgen", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}}},
		}
		p.Status.Phase, p.Status.Reason, p.Status.Message = corev1.PodFailed, "Evicted", "The node was low on resource: memory."
	})
	res, err := k.RunPod(context.Background(), spec(), io.Discard)
	if err != nil || !strings.Contains(res.Failure, "Evicted The node was low on resource") {
		t.Errorf("failure %q, error %v", res.Failure, err)
	}
	if len(res.Exits) != 2 || !res.Exits[0].OOMKilled || res.Exits[0].ExitCode != 137 || res.Exits[1].ExitCode != 1 {
		t.Errorf("exits %+v", res.Exits)
	}
	if f := experiment.EngineFailure(spec(), res); !strings.Contains(f, "api container killed for exceeding its memory limit (OOM)") {
		t.Errorf("the run's failure: %s", f)
	}
	if len(res.Records) == 0 || res.Records[0].Container != "api" || res.Records[0].Reason != "OOMKilled" || res.Records[0].ExitCode != 137 {
		t.Errorf("records %+v: want the api container's OOM kill first", res.Records)
	}
	gone(t, cs)
}

func TestRunPodFailsWhenTheAPIServerStopsAnswering(t *testing.T) {
	api, remove := apiPatience, removePatience
	apiPatience, removePatience = time.Second, time.Second
	t.Cleanup(func() { apiPatience, removePatience = api, remove })
	k, cs := fakeCluster(t, corev1.PodQOSGuaranteed, nil)
	cs.PrependReactor("get", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewServiceUnavailable("down")
	})
	res, err := k.RunPod(context.Background(), spec(), io.Discard)
	if !strings.Contains(res.Failure, "the API server did not answer for 1s during the run") {
		t.Errorf("failure %q", res.Failure)
	}
	// Nor could the kit see the Pod gone: that stops the matrix, as any cleanup that
	// cannot be confirmed does.
	if err == nil || !strings.Contains(err.Error(), "cleanup") {
		t.Errorf("error %v, want the cleanup's", err)
	}
}

func TestImagesRefuseANodeWithoutThem(t *testing.T) {
	k, _ := fakeCluster(t, corev1.PodQOSGuaranteed, nil)
	built := fakeBuilder{"api": "sha256:aaa", "loadgen": "sha256:bbb"}
	_, _, err := Images{Builder: built, Cluster: k, Import: "scripts/kube-images"}.Build(context.Background(), "linux/amd64", nil, io.Discard)
	var usage experiment.UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "node n1 does not hold the images logbench/loadgen:bbb") || !strings.Contains(err.Error(), "scripts/kube-images logbench/loadgen:bbb") {
		t.Errorf("%v", err)
	}
	ids, _, err := Images{Builder: fakeBuilder{"api": "sha256:aaa"}, Cluster: k}.Build(context.Background(), "linux/amd64", nil, io.Discard)
	if err != nil || ids["api"] != "docker.io/logbench/api:abc" || k.expect["docker.io/logbench/api:abc"] != "sha256:aaa" {
		t.Errorf("ids %v, %v", ids, err)
	}
}

// The files container runs the kit's own load generator image, which carries the
// files program, whatever the conductor's image is: a plan that does not name that
// image has it built and checked on the node all the same.
func TestTheFilesContainerRunsTheKitsOwnImage(t *testing.T) {
	k, cs := fakeCluster(t, corev1.PodQOSGuaranteed, nil)
	// The node holds both images, each by its own content-addressed tag.
	n, err := cs.CoreV1().Nodes().Get(context.Background(), node, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n.Status.Images = append(n.Status.Images, corev1.ContainerImage{Names: []string{"docker.io/logbench/" + FilesImage + ":bbb"}})
	if _, err := cs.CoreV1().Nodes().UpdateStatus(context.Background(), n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	var asked []string
	built := askedBuilder{fakeBuilder{"api": "sha256:aaa", FilesImage: "sha256:bbb"}, &asked}
	ids, _, err := Images{Builder: built, Cluster: k}.Build(context.Background(), "linux/amd64", []string{"api"}, io.Discard)
	if err != nil || !slices.Equal(asked, []string{"api", FilesImage}) || k.files != ids[FilesImage] || k.files == "" {
		t.Fatalf("asked %v, files %q, ids %v, %v", asked, k.files, ids, err)
	}
	alone := spec()
	alone.Containers = alone.Containers[1:]
	alone.Containers[0].Image = "docker.io/logbench/api-python:x" // a runtime's image, no files program
	pod, err := PodFor(alone, node, "ns", k.files)
	if err != nil || pod.Spec.Containers[0].Name != FilesContainer || pod.Spec.Containers[0].Image != k.files {
		t.Fatalf("the files container of a lone conductor: %+v, %v", pod.Spec.Containers, err)
	}
	eph, err := FilesEphemeral(spec(), k.files)
	if err != nil || eph.Image != k.files {
		t.Errorf("the ephemeral files container: %s, %v", eph.Image, err)
	}
}

// askedBuilder is a fakeBuilder that records the names it was asked for.
type askedBuilder struct {
	fakeBuilder
	asked *[]string
}

func (b askedBuilder) Build(ctx context.Context, platform string, names []string, w io.Writer) (map[string]string, []bundle.Image, error) {
	*b.asked = names
	return b.fakeBuilder.Build(ctx, platform, names, w)
}

// fakeBuilder builds role: ID, tagged logbench/role:<the ID's end>.
type fakeBuilder map[string]string

func (f fakeBuilder) Build(context.Context, string, []string, io.Writer) (map[string]string, []bundle.Image, error) {
	var imgs []bundle.Image
	for role, id := range f {
		imgs = append(imgs, bundle.Image{Role: role, ID: id, Tag: "logbench/" + role + ":" + map[string]string{"sha256:aaa": "abc", "sha256:bbb": "bbb"}[id]})
	}
	return f, imgs, nil
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"logbench/api:abc":          "docker.io/logbench/api:abc",
		"debian":                    "docker.io/library/debian:latest",
		"localhost:5000/x":          "localhost:5000/x:latest",
		"ghcr.io/a/b:1":             "ghcr.io/a/b:1",
		"docker.io/logbench/api:ab": "docker.io/logbench/api:ab",
		"myorg/api@sha256:00":       "docker.io/myorg/api@sha256:00",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%s) = %s, want %s", in, got, want)
		}
	}
}

// The nodes a cluster runs on: by default every Ready, schedulable node, each its own
// engine; a named node that is missing, cordoned, tainted or not Ready is refused in
// one line that says why.
func TestNodesAreEveryUsableNodeOrThoseNamed(t *testing.T) {
	ready := []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	cs := fake.NewClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "b"}, Status: corev1.NodeStatus{Conditions: ready}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Status: corev1.NodeStatus{Conditions: ready}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "cordoned"}, Spec: corev1.NodeSpec{Unschedulable: true}, Status: corev1.NodeStatus{Conditions: ready}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "tainted"}, Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "gpu", Effect: corev1.TaintEffectNoSchedule}}}, Status: corev1.NodeStatus{Conditions: ready}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "lost"}, Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionUnknown, Reason: "NodeStatusUnknown", Message: "Kubelet stopped posting node status."}}}},
	)
	c := NewClient(cs, nil, "ctx", "ns")
	if all, err := c.Nodes(context.Background(), nil); err != nil || !slices.Equal(all, []string{"a", "b"}) {
		t.Errorf("default nodes %v, %v; want a and b", all, err)
	}
	if named, err := c.Nodes(context.Background(), []string{"b", "a"}); err != nil || !slices.Equal(named, []string{"b", "a"}) {
		t.Errorf("named nodes %v, %v", named, err)
	}
	for name, want := range map[string]string{
		"cordoned": "--nodes: node cordoned is cordoned (unschedulable)",
		"tainted":  "--nodes: node tainted has the taint gpu:NoSchedule",
		"lost":     "--nodes: node lost is not Ready (NodeStatusUnknown: Kubelet stopped posting node status.)",
		"nowhere":  "--nodes: no node nowhere (the cluster has ",
	} {
		if _, err := c.Nodes(context.Background(), []string{"a", name}); err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--nodes a,%s: %v, want %q", name, err, want)
		}
	}
}
