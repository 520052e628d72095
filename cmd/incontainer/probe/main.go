// Command probe times the speed probe's fixed work (kit/incontainer/speedprobe) and
// writes the result as one JSON file. It runs in the api image, in a container with a
// run's API limits, before and after the run's load.
package main

import (
	"encoding/json"
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
	body, err := json.Marshal(speedprobe.Run(a.Rounds))
	if err == nil {
		err = os.WriteFile(a.Result, body, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(contract.ExitNoResult)
	}
}
