// Command linecost measures what one log line costs, seven ways, and writes one JSON
// document (kit/contract.LineCostDocument). It runs inside a container of the
// line-cost experiment, writing its log files to the run's volume.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/logbench/logbench/kit/incontainer/linecost"
)

func main() {
	a := linecost.DefaultArgs("/run/logbench")
	a.Bind(flag.CommandLine)
	flag.Parse()
	if flag.NArg() > 0 {
		fail(2, fmt.Errorf("unexpected arguments %q", flag.Args()))
	}
	c := linecost.ConfigOf(a)
	if err := c.Validate(); err != nil {
		fail(2, err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	doc, err := linecost.Run(ctx, c)
	if err != nil {
		fail(1, err)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		fail(1, err)
	}
	b = append(b, '\n')
	if a.Out == "-" {
		_, err = os.Stdout.Write(b)
	} else {
		err = os.WriteFile(a.Out, b, 0o644)
	}
	if err != nil {
		fail(1, err)
	}
}

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "linecost:", strings.ReplaceAll(err.Error(), "\n", "; "))
	os.Exit(code)
}
