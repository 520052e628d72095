package experiment_test

import (
	"flag"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
)

// limitFlags declares the limit flags as qps and your-api do.
func limitFlags(fs *flag.FlagSet) {
	fs.Float64("api-cpus", 1, "")
	fs.String("api-memory", "512MiB", "")
	fs.Float64("loadgen-cpus", 1, "")
	fs.String("loadgen-memory", "256MiB", "")
	fs.Int64("pids-limit", 256, "")
}

// Limits reads every limit, and refuses each out of range by its flag's name.
func TestLimitsReadsEachFlagAndRefusesOutOfRange(t *testing.T) {
	f := experiment.NewFlags("x", limitFlags)
	if err := f.Set.Parse([]string{"--api-cpus", "0.5", "--loadgen-memory", "1GiB"}); err != nil {
		t.Fatal(err)
	}
	l, err := f.Limits()
	want := experiment.Limits{APICPUs: 0.5, APIMemoryBytes: 512 << 20, LoadgenCPUs: 1, LoadgenMemoryBytes: 1 << 30, PidsLimit: 256}
	if err != nil || l != want {
		t.Fatalf("%+v %v, want %+v", l, err, want)
	}
	for _, args := range [][]string{{"--api-cpus", "0"}, {"--loadgen-cpus", "2000"}, {"--api-memory", "1MiB"}, {"--loadgen-memory", "lots"}, {"--pids-limit", "15"}} {
		f := experiment.NewFlags("x", limitFlags)
		if err := f.Set.Parse(args); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Limits(); err == nil || !strings.HasPrefix(err.Error(), args[0]+" ") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

func TestFormatLogOptsSortsByKey(t *testing.T) {
	if s := experiment.FormatLogOpts(map[string]string{"mode": "non-blocking", "max-buffer-size": "1m"}); s != "max-buffer-size=1m,mode=non-blocking" {
		t.Errorf("%q", s)
	}
	if s := experiment.FormatLogOpts(nil); s != "" {
		t.Errorf("%q", s)
	}
}
