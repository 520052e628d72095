// Package kube runs the kit's pods on a Kubernetes cluster through its API server
// (k8s.io/client-go): one Pod per run, pinned to one node, with the same containers,
// limits, hardening, shared network and run folder as on a Docker Engine
// (kit/host/engine). A Cluster is a lab.Engine; `--engine k8s:CONTEXT` makes one per
// node. It never prints: progress goes to the writer it is given.
//
// What Kubernetes cannot give as the Engine API does, and what the kit does instead:
//   - The run folder is an emptyDir volume (on the node's disk), writable by the kit's
//     user through fsGroup; the Pod's containers share its network namespace, so they
//     talk over 127.0.0.1 as on Docker.
//   - Files come back through the Pod's exec subresource: a container of the
//     conductor's image runs the kit's own files program (`files idle`), and the kit
//     execs `files cat PATH` in it. The kit's images have no tar and no shell.
//   - The console comes back through the Pod log API, which reads the kubelet's CRI log
//     file: the only log path a node has (contract.LogDriverCRI).
//   - Requests equal limits for CPU and memory in every container, so the Pod is in the
//     Guaranteed QoS class; a Pod the cluster puts in another class is refused.
//   - Kubernetes sets no rlimits and no per-container pids limit: the node's container
//     runtime gives them, and each container reads its own back as on Docker.
package kube

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// Prefix marks an --engine that names a kubeconfig context: "k8s:CONTEXT" ("k8s:"
// alone is the kubeconfig's current context).
const Prefix = "k8s:"

// DefaultNamespace is where the kit's Pods run unless told otherwise.
const DefaultNamespace = "logbench"

// ManagedBy labels every Pod the kit creates; RunLabel carries its run's ID.
const (
	ManagedBy = "app.kubernetes.io/managed-by"
	RunLabel  = "io.logbench.run"
)

// Options choose the cluster and where the Pods go.
type Options struct {
	// Kubeconfig is the file to read; "" takes KUBECONFIG, then ~/.kube/config.
	Kubeconfig string
	// Context is the kubeconfig context; "" its current one.
	Context string
	// Namespace is where Pods run; "" is DefaultNamespace.
	Namespace string
}

// Client is a reached cluster, before a node is chosen.
type Client struct {
	cs        kubernetes.Interface
	cfg       *rest.Config
	context   string
	namespace string
}

// Dial reads the kubeconfig and reaches the API server, checking that it answers and
// that the namespace exists.
func Dial(ctx context.Context, o Options) (*Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if o.Kubeconfig != "" {
		rules.ExplicitPath = o.Kubeconfig
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: o.Context})
	raw, err := loader.RawConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	name := cmp.Or(o.Context, raw.CurrentContext)
	if name == "" {
		return nil, errors.New("kubeconfig: no context named and no current context (KUBECONFIG or ~/.kube/config)")
	}
	if _, ok := raw.Contexts[name]; !ok {
		return nil, fmt.Errorf("kubeconfig: no context %q (it has %s)", name, strings.Join(contextNames(raw.Contexts), ", "))
	}
	cfg, err := loader.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig context %s: %w", name, err)
	}
	cfg.UserAgent = "logbench"
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig context %s: %w", name, err)
	}
	c := &Client{cs: cs, cfg: cfg, context: name, namespace: cmp.Or(o.Namespace, DefaultNamespace)}
	if _, err := cs.Discovery().ServerVersion(); err != nil {
		return nil, fmt.Errorf("cannot reach the Kubernetes API server at %s (context %s): %w", cfg.Host, name, err)
	}
	if _, err := cs.CoreV1().Namespaces().Get(ctx, c.namespace, metav1.GetOptions{}); err != nil {
		return nil, fmt.Errorf("namespace %s on %s (context %s): %w", c.namespace, cfg.Host, name, err)
	}
	return c, nil
}

func contextNames[V any](m map[string]V) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// NewClient wraps a clientset, for tests against client-go's fake.
func NewClient(cs kubernetes.Interface, cfg *rest.Config, context, namespace string) *Client {
	if cfg == nil {
		cfg = &rest.Config{}
	}
	return &Client{cs: cs, cfg: cfg, context: context, namespace: cmp.Or(namespace, DefaultNamespace)}
}

// Context is the kubeconfig context reached; Server the API server's address.
func (c *Client) Context() string { return c.context }
func (c *Client) Server() string  { return c.cfg.Host }

// Nodes are the nodes named, each checked to exist, be Ready and schedulable; with
// none named, every Ready and schedulable node of the cluster.
func (c *Client) Nodes(ctx context.Context, names []string) ([]string, error) {
	list, err := c.cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing the nodes: %w", err)
	}
	usable := map[string]string{} // node: why not ("" when usable)
	var all []string
	for _, n := range list.Items {
		usable[n.Name] = unusable(&n)
		if usable[n.Name] == "" {
			all = append(all, n.Name)
		}
	}
	if len(names) == 0 {
		if len(all) == 0 {
			return nil, fmt.Errorf("no Ready and schedulable node among the cluster's %d", len(list.Items))
		}
		slices.Sort(all)
		return all, nil
	}
	for _, n := range names {
		why, ok := usable[n]
		if !ok {
			return nil, fmt.Errorf("--nodes: no node %s (the cluster has %s)", n, strings.Join(contextNames(usable), ", "))
		}
		if why != "" {
			return nil, fmt.Errorf("--nodes: node %s %s", n, why)
		}
	}
	return names, nil
}

// unusable says why a node takes no Pods of the kit ("" when it does).
func unusable(n *corev1.Node) string {
	if n.Spec.Unschedulable {
		return "is cordoned (unschedulable)"
	}
	if ready := nodeReady(n); ready != "" {
		return ready
	}
	for _, t := range n.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute {
			return fmt.Sprintf("has the taint %s:%s", t.Key, t.Effect)
		}
	}
	return ""
}

// nodeReady says why a node is not Ready ("" when it is).
func nodeReady(n *corev1.Node) string {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			if c.Status == corev1.ConditionTrue {
				return ""
			}
			return fmt.Sprintf("is not Ready (%s: %s)", c.Reason, c.Message)
		}
	}
	return "reports no Ready condition"
}

// Cluster is a reached cluster and the one node its Pods run on: a lab.Engine.
type Cluster struct {
	*Client
	node string
	// expect maps an image reference the Pods run to the ID the kit built it as, so
	// that a run on other content is named (Images.Build fills it).
	expect map[string]string
	// files is FilesImage as the node runs it ("" until Images.Build has built it).
	files string
	// exec runs a command in a container of a Pod and writes its stdout (the exec
	// subresource; replaced in tests).
	exec func(ctx context.Context, pod, container string, cmd []string, stdout *experiment.LimitedBuffer) error
}

// On is the cluster with its Pods pinned to node.
func (c *Client) On(node string) *Cluster {
	k := &Cluster{Client: c, node: node, expect: map[string]string{}}
	k.exec = k.execREST
	return k
}

// Node is the node the Pods run on.
func (k *Cluster) Node() string { return k.node }

// Close releases nothing: client-go keeps no connection that needs closing.
func (k *Cluster) Close() error { return nil }

// VolumeExists refuses: a named volume is the Engine API's; a Pod's run folder is an
// emptyDir.
func (k *Cluster) VolumeExists(context.Context, string) (bool, error) {
	return false, errors.New("named volumes are not supported on Kubernetes: the run folder is the Pod's emptyDir")
}

// Facts describe the cluster and the node as the API server and the kubelet report
// them.
func (k *Cluster) Facts(ctx context.Context) (contract.EngineFacts, error) {
	v, err := k.cs.Discovery().ServerVersion()
	if err != nil {
		return contract.EngineFacts{}, fmt.Errorf("the API server's version: %w", err)
	}
	n, err := k.cs.CoreV1().Nodes().Get(ctx, k.node, metav1.GetOptions{})
	if err != nil {
		return contract.EngineFacts{}, fmt.Errorf("node %s: %w", k.node, err)
	}
	info := n.Status.NodeInfo
	f := contract.EngineFacts{
		Host:             n.Name,
		Kind:             contract.EngineKubernetes,
		KindEvidence:     "the API server's /version: " + v.GitVersion,
		EngineVersion:    v.GitVersion,
		APIVersion:       "v1",
		OS:               info.OSImage,
		OSType:           info.OperatingSystem,
		Kernel:           info.KernelVersion,
		Architecture:     info.Architecture,
		Platform:         info.OperatingSystem + "/" + info.Architecture,
		LogDrivers:       []string{contract.LogDriverCRI},
		DefaultLogDriver: contract.LogDriverCRI,
		Kubernetes: &contract.KubeFacts{ServerVersion: v.GitVersion, Context: k.context, Server: k.cfg.Host, Namespace: k.namespace,
			Node: n.Name, KubeletVersion: info.KubeletVersion, ContainerRuntime: info.ContainerRuntimeVersion},
	}
	if cpu, ok := n.Status.Capacity[corev1.ResourceCPU]; ok {
		f.CPUs = int(cpu.Value())
	}
	if mem, ok := n.Status.Capacity[corev1.ResourceMemory]; ok {
		f.MemoryBytes = mem.Value()
	}
	// The kubelet's own configuration, through the node proxy (nodes/proxy): its cgroup
	// driver, CPU manager policy and the Pods' pids limit. Not every cluster grants it.
	body, err := k.cs.CoreV1().RESTClient().Get().AbsPath("/api/v1/nodes", k.node, "proxy", "configz").DoRaw(ctx)
	if err == nil {
		var z struct {
			Config struct {
				CgroupDriver     string `json:"cgroupDriver"`
				CPUManagerPolicy string `json:"cpuManagerPolicy"`
				PodPidsLimit     int64  `json:"podPidsLimit"`
			} `json:"kubeletconfig"`
		}
		if json.Unmarshal(body, &z) == nil {
			f.CgroupDriver = z.Config.CgroupDriver
			f.Kubernetes.CPUManagerPolicy, f.Kubernetes.PodPidsLimit = z.Config.CPUManagerPolicy, z.Config.PodPidsLimit
		}
	}
	return f, nil
}

// ImageID finds an image the node already holds, by reference (a user's own API):
// the node's status lists each image by its names. The reference, normalized as the
// runtime names it, is what the Pod then runs.
func (k *Cluster) ImageID(ctx context.Context, ref string) (string, bool, error) {
	n, err := k.cs.CoreV1().Nodes().Get(ctx, k.node, metav1.GetOptions{})
	if err != nil {
		return "", false, fmt.Errorf("node %s: %w", k.node, err)
	}
	want := Normalize(ref)
	for _, img := range n.Status.Images {
		for _, name := range img.Names {
			if name == want || name == ref {
				return want, true, nil
			}
		}
	}
	return "", false, nil
}

// Normalize names an image reference as a container runtime does:
// "logbench/api:x" is "docker.io/logbench/api:x", "debian" is
// "docker.io/library/debian:latest".
func Normalize(ref string) string {
	name, rest := ref, ""
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		name, rest = ref[:i], ref[i:]
	}
	if slash := strings.LastIndexByte(name, '/'); !strings.Contains(name[slash+1:], ":") && rest == "" {
		name += ":latest"
	}
	first, _, found := strings.Cut(name, "/")
	switch {
	case !found:
		name = "docker.io/library/" + name
	case !strings.ContainsAny(first, ".:") && first != "localhost":
		name = "docker.io/" + name
	}
	return name + rest
}

var _ experiment.Pods = (*Cluster)(nil)
