package closedloop

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/logbench/logbench/kit/contract"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The generators' own capacity: the most requests per second the kit's generator and
// Debian's wrk each reach with one CPU against a trivial server (cannedServer) on
// another CPU, 10 connections, one request in flight each, as qps runs them:
//
//	go test ./kit/incontainer/closedloop -run '^$' -bench Capacity -benchtime 1x
//
// Each generator is a process of its own pinned to CPU 0 (taskset): wrk -t1 with its
// one thread, the kit's with GOMAXPROCS=2 as qpsload runs it (its event loop on one
// thread, the process's other goroutines on the second processor); the server is
// pinned to CPU 1 with GOMAXPROCS=1; without
// taskset nothing is pinned and the benchmark says so. Besides the rate reached
// (req/s), each reports its CPU time per request and the rate that CPU time allows on
// a whole core (req/cpu-s): when the server, not the generator, is what saturates, the
// rate reached is the server's and req/cpu-s is the generator's ceiling. The wrk half
// is skipped when wrk is not installed (apt-get install wrk).

const generatorEnv = "LOGBENCH_CLOSEDLOOP_GENERATOR_URL"

// capacityDuration is each load's measured interval, after a second of warm-up.
const capacityDuration = 5 * time.Second

func init() {
	if url := os.Getenv(generatorEnv); url != "" {
		// The kit's generator as its own process: one load, its result on stdout.
		r, err := Run(context.Background(), Params{URL: url, Connections: 10, Pipelining: 1, Warmup: time.Second, Duration: capacityDuration, CPULimitCores: 1})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		json.NewEncoder(os.Stdout).Encode(r)
		os.Exit(0)
	}
}

// pinned is name and args run on cpu with GOMAXPROCS=1, through taskset when there is one.
func pinned(b *testing.B, cpu int, name string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if ts, err := exec.LookPath("taskset"); err == nil {
		cmd = exec.Command(ts, append([]string{"-c", strconv.Itoa(cpu), name}, args...)...)
	} else {
		b.Log("no taskset: the processes are not pinned to a CPU each")
		cmd = exec.Command(name, args...)
	}
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	return cmd
}

// startPinnedServer is cannedServer on CPU 1.
func startPinnedServer(b *testing.B) string {
	cmd := pinned(b, 1, os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(cmd.Env, serverEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return "http://" + strings.TrimSpace(line) + "/"
}

func cpuOf(cmd *exec.Cmd) time.Duration {
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func BenchmarkCapacity(b *testing.B) {
	url := startPinnedServer(b)
	b.Run("kit", func(b *testing.B) {
		var rate, cpuPerReq float64
		for range b.N {
			cmd := pinned(b, 0, os.Args[0], "-test.run=^$", "-test.bench=^$")
			cmd.Env = append(cmd.Env, generatorEnv+"="+url, "GOMAXPROCS=2")
			out, err := cmd.Output()
			if err != nil {
				b.Fatalf("%v: %s", err, out)
			}
			var r contract.ClosedLoopResult
			if err := json.Unmarshal(out, &r); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
			if r.Errors != 0 || r.Requests == 0 {
				b.Fatalf("%d requests, %d errors (%s)", r.Requests, r.Errors, r.ErrorSample)
			}
			// The generator's own CPU over the measured interval (getrusage in it).
			rate += r.RequestsPerSInterval / float64(b.N)
			cpuPerReq += r.GeneratorCPUS / float64(r.Requests) / float64(b.N)
		}
		b.ReportMetric(rate, "req/s")
		b.ReportMetric(cpuPerReq*1e9, "cpu-ns/req")
		b.ReportMetric(1/cpuPerReq, "req/cpu-s")
	})
	b.Run("wrk", func(b *testing.B) {
		wrk, err := exec.LookPath("wrk")
		if err != nil {
			b.Skip("wrk is not installed (apt-get install wrk)")
		}
		var rate, cpuPerReq float64
		for range b.N {
			// wrk has no warm-up of its own: a second of it first, as the kit's.
			if out, err := pinned(b, 0, wrk, "-t1", "-c10", "-d1s", url).CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
			cmd := pinned(b, 0, wrk, "-t1", "-c10", fmt.Sprintf("-d%ds", int(capacityDuration.Seconds())), url)
			out, err := cmd.CombinedOutput()
			if err != nil {
				b.Fatalf("%v: %s", err, out)
			}
			n, r, err := wrkRate(string(out))
			if err != nil {
				b.Fatal(err)
			}
			// wrk's CPU over its whole life: its connections' set-up is in it, so its
			// CPU per request is an upper bound.
			rate += r / float64(b.N)
			cpuPerReq += cpuOf(cmd).Seconds() / float64(n) / float64(b.N)
		}
		b.ReportMetric(rate, "req/s")
		b.ReportMetric(cpuPerReq*1e9, "cpu-ns/req")
		b.ReportMetric(1/cpuPerReq, "req/cpu-s")
	})
}

var (
	wrkRequestsLine = regexp.MustCompile(`(?m)^\s*(\d+) requests in `)
	wrkRateLine     = regexp.MustCompile(`(?m)^Requests/sec:\s*([0-9.]+)`)
)

// wrkRate is wrk's request count and Requests/sec (kit/experiments/qps parses the
// rest of its output; this package cannot import that one).
func wrkRate(out string) (int64, float64, error) {
	m, r := wrkRequestsLine.FindStringSubmatch(out), wrkRateLine.FindStringSubmatch(out)
	if m == nil || r == nil {
		return 0, 0, fmt.Errorf("wrk's output has no requests or Requests/sec line:\n%s", out)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	rate, err := strconv.ParseFloat(r[1], 64)
	return n, rate, err
}
