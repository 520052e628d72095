package contract

// The engine kinds the kit tells apart, by what the engine reports of itself
// (EngineFacts.Kind).
const (
	EngineDocker = "docker"
	EnginePodman = "podman"
	// EngineKubernetes is a Kubernetes cluster reached through its API server, one of
	// its nodes running the Pods (EngineFacts.Kubernetes says which).
	EngineKubernetes = "kubernetes"
)

// LogDriverCRI names the only console path a Kubernetes node offers: the container
// runtime writes each container's stdout and stderr to the kubelet's CRI log file,
// which the Pod log API reads back.
const LogDriverCRI = "cri"

// EngineFacts describe the engine's host, for the manifest and for comparing hosts.
type EngineFacts struct {
	Host string `json:"host"`
	// Kind is the engine as it reports itself: "docker" or "podman" ("" when its
	// report names neither); KindEvidence is what in the report said so.
	Kind          string `json:"kind,omitempty"`
	KindEvidence  string `json:"kind_evidence,omitempty"`
	EngineVersion string `json:"engine_version"`
	// APIVersion is the Engine API version the kit spoke (negotiated);
	// EngineAPIVersion the newest the engine offers.
	APIVersion       string `json:"api_version"`
	EngineAPIVersion string `json:"engine_api_version,omitempty"`
	OS               string `json:"os"`
	OSType           string `json:"os_type"`
	Kernel           string `json:"kernel"`
	Architecture     string `json:"architecture"`
	Platform         string `json:"platform"` // linux/amd64, linux/arm64
	CPUs             int    `json:"cpus"`
	MemoryBytes      int64  `json:"memory_bytes"`
	CgroupVersion    string `json:"cgroup_version"`
	CgroupDriver     string `json:"cgroup_driver"`
	StorageDriver    string `json:"storage_driver"`
	SwapLimitSupport bool   `json:"swap_limit_support"`
	// LogDrivers are the logging drivers the engine offers ("json-file", "local", ...).
	LogDrivers []string `json:"log_drivers,omitempty"`
	// DefaultLogDriver is the engine's default logging driver.
	DefaultLogDriver string `json:"default_log_driver,omitempty"`
	// Kubernetes is the cluster and the node, when the engine is a Kubernetes cluster;
	// absent for an Engine API.
	Kubernetes *KubeFacts `json:"kubernetes,omitempty"`
}

// KubeFacts describe a Kubernetes cluster and the node that ran the Pods, as its API
// server and its kubelet report them. The node's kernel, architecture, CPUs and
// memory are EngineFacts' own fields.
type KubeFacts struct {
	// ServerVersion is the API server's (/version's gitVersion).
	ServerVersion string `json:"server_version"`
	// Context is the kubeconfig context the kit used, Server the API server's address.
	Context string `json:"context"`
	Server  string `json:"server"`
	// Namespace is where the kit's Pods ran.
	Namespace string `json:"namespace"`
	// Node is the node the Pods were pinned to, with its kubelet and container runtime
	// as the node's status reports them ("containerd://1.6.20").
	Node             string `json:"node"`
	KubeletVersion   string `json:"kubelet_version"`
	ContainerRuntime string `json:"container_runtime"`
	// CPUManagerPolicy and PodPidsLimit are the kubelet's configuration (its configz),
	// empty and 0 when it could not be read; a Pod's pids limit is the node's, not
	// the kit's.
	CPUManagerPolicy string `json:"cpu_manager_policy,omitempty"`
	PodPidsLimit     int64  `json:"pod_pids_limit,omitempty"`
}

// Exit is how one container of a run ended, as the engine reports it.
type Exit struct {
	Role      string `json:"role"`
	ID        string `json:"id"`
	Running   bool   `json:"running"` // still running when the run ended (it was stopped)
	ExitCode  int    `json:"exit_code"`
	OOMKilled bool   `json:"oom_killed"`
	LogTail   string `json:"log_tail,omitempty"`
}

// Usage is what one container used from its start, as the engine reads its cgroup: CPU
// time and the highest memory it held (0 where the engine does not report a peak).
type Usage struct {
	CPUNanos        int64 `json:"cpu_ns"`
	MemoryPeakBytes int64 `json:"memory_peak_bytes"`
}
