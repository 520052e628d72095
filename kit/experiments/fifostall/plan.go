package fifostall

import (
	"encoding/json"
	"fmt"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/report"
)

// Paths inside every container of a run.
const (
	fifoPath   = contract.RunDir + "/log.fifo"
	resultPath = contract.RunDir + "/result.json"
)

// Cond is a condition of this experiment: one API, logging mode and reader.
type Cond struct{ API, Mode, Reader string }

func (c Cond) String() string { return c.API + "/" + c.Mode + "/" + c.Reader }

// Images are the API images of apis, and the reader and the load generator.
func (s Settings) Images(apis []string) []string {
	names := report.Distinct(apis, ImageOf)
	if s.ClientTopology == SharedClient {
		return append(names, "loadgen") // the loadgen image runs the reader too
	}
	return append(names, "reader", "loadgen")
}

// Pod is one run's containers: the API owns the network namespace, the reader and the
// load generator (the conductor) join it.
func (s Settings) Pod(c Cond, runID string, images map[string]string) experiment.PodSpec {
	lg := contract.DefaultLoadgenArgs()
	lg.Run = s.Protocol
	return s.pod(c.API, c.Mode, s.ReaderBounds[c.Reader], runID, s.Limits, images, lg)
}

// pod is one run's containers. Split, the reader and the load generator each have a
// container and limits of their own; shared (as published), the load generator's
// container is the client: it runs the reader as its child process, both under the
// client's one budget (the loadgen limits), and containers.csv's reader and loadgen rows
// then read the same cgroup.
func (s Settings) pod(api, mode string, readerRate int64, runID string, l Limits, images map[string]string, lg contract.LoadgenArgs) experiment.PodSpec {
	apiArgs := contract.DefaultAPIArgs()
	apiArgs.Mode, apiArgs.FIFO, apiArgs.MaxLogBytes = mode, fifoPath, s.MaxLogBytes
	apiC := experiment.ContainerSpec{Role: "api", Image: images[ImageOf(api)], NanoCPUs: experiment.NanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
		Cmd: apiArgs.FIFOArgs()}
	reader := contract.ReaderArgs{FIFO: fifoPath, RateBytes: readerRate}
	lg.Result = resultPath
	shared := s.ClientTopology == SharedClient
	if shared {
		lg.WithReader, lg.ReaderFIFO, lg.ReaderRate = true, fifoPath, readerRate
	}
	loadgenC := experiment.ContainerSpec{Role: "loadgen", Image: images["loadgen"], NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
		Cmd: lg.Args()}
	containers := []experiment.ContainerSpec{apiC,
		{Role: "reader", Image: images["reader"], NanoCPUs: experiment.NanoCPUs(l.ReaderCPUs), MemoryBytes: l.ReaderMemoryBytes, Cmd: reader.Args()},
		loadgenC}
	if shared {
		containers = []experiment.ContainerSpec{apiC, loadgenC}
	}
	return experiment.PodSpec{
		RunID:      runID,
		Conductor:  "loadgen",
		MountPath:  contract.RunDir,
		ResultPath: resultPath,
		User:       contract.User,
		PidsLimit:  l.PidsLimit,
		Containers: containers,
		StopAfter:  experiment.WithGrace(lg.Longest()),
	}
}

// sweepResult parses a capacity sweep's result.
func sweepResult(run experiment.Run) (contract.SweepResult, error) {
	var res contract.SweepResult
	if run.Pod.Result == nil {
		return res, fmt.Errorf("sweep: %s", run.Failure)
	}
	err := json.Unmarshal(run.Pod.Result, &res)
	return res, err
}
