// Command probe times the speed probe's fixed work (kit/incontainer/speedprobe): SHA-256
// over a fixed buffer, then the request path (one-byte writes to /dev/null, requests
// over loopback), and writes the result as one JSON file. It runs in the api image, in
// a container with a run's API limits, before and after the run's load. A loop of the
// request path that fails is left out of the result and named in its failure: the
// arithmetic's speed still counts.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/speedprobe"
)

func main() {
	a := contract.DefaultProbeArgs()
	a.Bind(flag.CommandLine)
	flag.Parse()
	res := speedprobe.Run(a.Rounds)
	var failed []error
	if a.Syscalls > 0 {
		s, err := speedprobe.Syscalls(a.Syscalls)
		if err == nil {
			res.Syscalls = &s
		}
		failed = append(failed, err)
	}
	if a.Requests > 0 {
		r, err := speedprobe.Requests(a.Requests)
		if err == nil {
			res.Requests = &r
		}
		failed = append(failed, err)
	}
	if err := errors.Join(failed...); err != nil {
		res.Failure = err.Error()
		fmt.Fprintln(os.Stderr, "probe:", err)
	}
	body, err := json.Marshal(res)
	if err == nil {
		err = os.WriteFile(a.Result, body, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(contract.ExitNoResult)
	}
}
