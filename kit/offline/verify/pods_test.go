package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// podBundle is the files Pods reads: rows as pods.csv, listed in SHA256SUMS.
func podBundle(t *testing.T, rows []bundle.PodRow) map[string][]byte {
	t.Helper()
	body, err := bundle.EncodePods(rows)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	return map[string][]byte{bundle.PodFile: body, bundle.SumsFile: []byte(hex.EncodeToString(sum[:]) + "  " + bundle.PodFile + "\n")}
}

// podRecord is a container of run id's Guaranteed Pod as a cluster records it.
func podRecord(id, uid, container string) bundle.PodRow {
	return bundle.PodRow{RunID: id, Pod: "logbench-" + id, PodUID: uid, Node: "vm", QOSClass: "Guaranteed", CreatedUTC: "2026-12-04T03:00:00Z",
		Container: container, CPURequest: 1, CPULimit: 1, MemoryRequest: 256 << 20, MemoryLimit: 256 << 20,
		Image: "docker.io/logbench/api:x", ImageID: "sha256:abc", StartedUTC: "2026-12-04T03:00:01Z", FinishedUTC: "2026-12-04T03:00:06Z", ExitCode: 0, Reason: "Completed"}
}

// TestPodsAreRecordsThatCouldHaveHappened: the records of two runs' Pods as the kit
// writes them verify; each edit that makes a record impossible is named in one
// problem: a run the bundle lacks, a Guaranteed container whose limit is not its
// request, a class the API server never gives, two runs sharing one Pod, a container
// twice, a Pod without a UID.
func TestPodsAreRecordsThatCouldHaveHappened(t *testing.T) {
	runs := map[string]bool{"r1": true, "r2": true}
	good := func() []bundle.PodRow {
		return []bundle.PodRow{podRecord("r1", "u1", "api"), podRecord("r1", "u1", "loadgen"), podRecord("r2", "u2", "api")}
	}
	res := &Result{}
	Pods(res, podBundle(t, good()), runs)
	if len(res.Problems) > 0 {
		t.Fatalf("the kit's own records: %v", res.Problems)
	}
	for name, c := range map[string]struct {
		edit func([]bundle.PodRow)
		want string
	}{
		"no such run":       {func(r []bundle.PodRow) { r[2].RunID = "r9" }, "no such run"},
		"limit not request": {func(r []bundle.PodRow) { r[0].CPULimit = 2 }, "needs them equal"},
		"unknown class":     {func(r []bundle.PodRow) { r[1].QOSClass = "Premium" }, "no QoS class"},
		"one Pod two runs":  {func(r []bundle.PodRow) { r[2].PodUID = "u1" }, "the Pod of run"},
		"container twice":   {func(r []bundle.PodRow) { r[1].Container = "api" }, "container twice"},
		"no UID":            {func(r []bundle.PodRow) { r[2].PodUID = "" }, "gives every Pod a UID"},
	} {
		rows := good()
		c.edit(rows)
		res := &Result{}
		Pods(res, podBundle(t, rows), runs)
		if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Msg, c.want) {
			t.Errorf("%s: problems %v, want one saying %q", name, res.Problems, c.want)
		}
	}
	// A Burstable Pod's limits may differ from its requests: that run failed, and its
	// record says why.
	rows := good()
	rows[2].QOSClass, rows[2].CPULimit = "Burstable", 2
	res = &Result{}
	if Pods(res, podBundle(t, rows), runs); len(res.Problems) > 0 {
		t.Errorf("a Burstable Pod's record: %v", res.Problems)
	}
}
