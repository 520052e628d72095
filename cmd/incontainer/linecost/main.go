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
	c := linecost.DefaultConfig("/run/logbench")
	ways := flag.String("ways", strings.Join(linecost.Ways, ","), "comma-separated ways to measure")
	flag.Int64Var(&c.Lines, "lines", c.Lines, fmt.Sprintf("lines per trial (at least %d)", linecost.MinLines))
	flag.IntVar(&c.Trials, "trials", c.Trials, "trials per way, kept")
	flag.IntVar(&c.Warmup, "warmup", c.Warmup, "warm-up trials per way, run first and discarded")
	flag.StringVar(&c.Dir, "dir", c.Dir, "directory for the log files (the run's volume)")
	out := flag.String("out", "-", `file for the JSON document ("-": standard output)`)
	flag.IntVar(&c.QueueSize, "queue-size", c.QueueSize, "lines the queue way's queue holds")
	flag.StringVar(&c.QueueFull, "queue-full", c.QueueFull, "when the queue is full: block or drop")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(2, fmt.Errorf("unexpected arguments %q", flag.Args()))
	}
	c.Ways = strings.Split(*ways, ",")
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
	if *out == "-" {
		_, err = os.Stdout.Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fail(1, err)
	}
}

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "linecost:", strings.ReplaceAll(err.Error(), "\n", "; "))
	os.Exit(code)
}
