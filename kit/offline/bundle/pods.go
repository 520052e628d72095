package bundle

import "reflect"

// PodFile is the engine's own account of each run's pod, one row a container, as a
// Kubernetes cluster gives it: what the API server made of the Pod the kit asked for.
// A bundle of an engine that keeps no such account (Docker, Podman) has none.
const PodFile = "pods.csv"

// PodRow is one container of one run's Pod (pods.csv), as the API server returned it
// after the run: the Pod's identity and QoS class, the container's requests and limits
// as admitted, the image the node ran, and how the container ended.
type PodRow struct {
	RunID      string `csv:"run_id"`
	Pod        string `csv:"pod"`
	PodUID     string `csv:"pod_uid"`
	Node       string `csv:"node"`
	QOSClass   string `csv:"qos_class"`
	CreatedUTC string `csv:"pod_created_utc"`
	Container  string `csv:"container"`
	Ephemeral  bool   `csv:"ephemeral"`
	// The container's resources as the API server admitted them: CPUs in cores, memory
	// in bytes; absent when the container asked none.
	CPURequest    Opt    `csv:"cpu_request"`
	CPULimit      Opt    `csv:"cpu_limit"`
	MemoryRequest Opt    `csv:"memory_request_bytes"`
	MemoryLimit   Opt    `csv:"memory_limit_bytes"`
	Image         string `csv:"image"`
	ImageID       string `csv:"image_id"`
	StartedUTC    string `csv:"started_utc"`
	FinishedUTC   string `csv:"finished_utc"`
	ExitCode      Opt    `csv:"exit_code"`
	Reason        string `csv:"reason"`
}

// podTable describes pods.csv in every bundle's data package.
var podTable = Table{File: PodFile, Name: "pods", Row: reflect.TypeFor[PodRow](), Key: []string{"run_id", "container"},
	Text: "One row per container of each run's Pod, on an engine that gives its own account of a pod (a Kubernetes cluster; absent on Docker and Podman): " +
		"what the API server made of the Pod the kit asked for, read after the run. A run's Pod must be in the Guaranteed QoS class with every container's limits equal to its requests, or the run is not data."}

var podDocs = map[string]Doc{
	"run_id":               {Text: "The run, as runs.csv names it."},
	"pod":                  {Text: "The Pod's name in its namespace."},
	"pod_uid":              {Text: "The Pod's UID, which the API server gave it: two Pods never share one."},
	"node":                 {Text: "The node the Pod ran on."},
	"qos_class":            {Text: "The QoS class the API server gave the Pod: Guaranteed when every container's requests equal its limits."},
	"pod_created_utc":      {Text: "When the API server created the Pod (RFC 3339, UTC, to the second)."},
	"container":            {Text: "The container's name in the Pod: its role in the run, or the kit's files container."},
	"ephemeral":            {Text: "The container was added to the running Pod (the kit's files container, once the conductor ended): it asks the node for no CPU."},
	"cpu_request":          {Unit: "CPU", Text: "The container's CPU request as admitted, in cores; missing when it asked none."},
	"cpu_limit":            {Unit: "CPU", Text: "The container's CPU limit as admitted, in cores; missing when it has none."},
	"memory_request_bytes": {Unit: "B", Text: "The container's memory request as admitted; missing when it asked none."},
	"memory_limit_bytes":   {Unit: "B", Text: "The container's memory limit as admitted; missing when it has none."},
	"image":                {Text: "The image the Pod's spec names."},
	"image_id":             {Text: "The image the node's runtime ran, as the container's status names it (a digest)."},
	"started_utc":          {Text: "When the container started (RFC 3339, UTC, to the second); missing when it never did."},
	"finished_utc":         {Text: "When the container ended (RFC 3339, UTC, to the second); missing when it was still running when the kit read the Pod."},
	"exit_code":            {Unit: "1", Text: "The container's exit code; missing when it had not ended."},
	"reason":               {Text: "Why the container ended, as the runtime says (Completed, Error, OOMKilled), or why it is waiting; missing when it runs."},
}

// EncodePods writes pods.csv.
func EncodePods(rows []PodRow) ([]byte, error) { return marshalCSV(&rows) }

// ReadPods reads the pods.csv of the bundle folder dir, for a matrix that goes on with
// it; none when the bundle has none.
func ReadPods(dir string) ([]PodRow, error) { return readOptional[PodRow](dir, PodFile) }
