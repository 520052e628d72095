package experiment_test

import (
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/verify"
)

// limits are the limits as qps and your-api bind them, with their defaults.
type limits struct{ experiment.Limits }

func (l *limits) Bind(fs *flag.FlagSet) { l.Limits.Flags("").Bind(fs) }
func (l *limits) Check() error          { return l.Limits.Flags("").Check() }

func newLimits() *limits {
	return &limits{experiment.Limits{APICPUs: 1, APIMemoryBytes: 512 << 20, LoadgenCPUs: 1, LoadgenMemoryBytes: 256 << 20, PidsLimit: 256}}
}

// Limits binds every limit to its field, and refuses each out of range by its flag's
// name.
func TestLimitsBindEachFlagAndRefuseOutOfRange(t *testing.T) {
	l := newLimits()
	if err := experiment.FlagSet("x", l).Parse([]string{"--api-cpus", "0.5", "--loadgen-memory", "1GiB"}); err != nil {
		t.Fatal(err)
	}
	want := experiment.Limits{APICPUs: 0.5, APIMemoryBytes: 512 << 20, LoadgenCPUs: 1, LoadgenMemoryBytes: 1 << 30, PidsLimit: 256}
	if err := l.Check(); err != nil || l.Limits != want {
		t.Fatalf("%+v %v, want %+v", l.Limits, err, want)
	}
	for _, args := range [][]string{{"--api-cpus", "0"}, {"--loadgen-cpus", "2000"}, {"--api-memory", "1MiB"}, {"--pids-limit", "15"}} {
		l := newLimits()
		if err := experiment.FlagSet("x", l).Parse(args); err != nil {
			t.Fatal(err)
		}
		if err := l.Check(); err == nil || !strings.HasPrefix(err.Error(), args[0]+" ") {
			t.Errorf("%v: %v", args, err)
		}
	}
	if err := experiment.FlagSet("x", newLimits()).Parse([]string{"--loadgen-memory", "lots"}); err == nil {
		t.Error("--loadgen-memory lots parsed as a size")
	}
}

// settings are a field of each kind the kit's values bind.
type settings struct {
	DurationS  float64
	LagMs      float64
	Bytes      int64
	Configs    []string
	APIs       []string
	ReadOnly   bool
	WrkGiven   bool
	EngineCPU  bool
	LogDriver  string
	LogOptions map[string]string
}

func (s *settings) Bind(fs *flag.FlagSet) {
	fs.Var(experiment.Seconds(&s.DurationS), "duration", "")
	fs.Var(experiment.Milliseconds(&s.LagMs), "max-send-lag", "")
	fs.Var(experiment.Bytes(&s.Bytes), "memory", "")
	fs.Var(experiment.List(&s.Configs), "configs", "")
	fs.Var(experiment.OneOrAll(&s.APIs, []string{"go", "node"}), "api", "")
	fs.Var(experiment.Negated(&s.ReadOnly), "writable-root", "")
	experiment.Given(fs, &s.WrkGiven, func(fs *flag.FlagSet) { fs.BoolVar(&s.EngineCPU, "engine-cpu", s.EngineCPU, "") })
	experiment.BindLogDriver(fs, &s.LogDriver, &s.LogOptions)
}
func (s *settings) Check() error { return nil }

func newSettings() *settings {
	return &settings{DurationS: 5, LagMs: 1, Bytes: 256 << 20, Configs: []string{"none", "console"}, APIs: []string{"go", "node"}, ReadOnly: true, EngineCPU: true}
}

// The default each value shows is its field's, in the flag's unit, and parses back to
// the same field: --help never shows a default other than the one used.
func TestEveryValueShowsItsFieldInTheFlagsUnit(t *testing.T) {
	shown := map[string]string{}
	fs := experiment.FlagSet("x", newSettings())
	fs.VisitAll(func(f *flag.Flag) { shown[f.Name] = f.DefValue })
	want := map[string]string{"duration": "5s", "max-send-lag": "1ms", "memory": "256MiB", "configs": "none,console", "api": "all",
		"writable-root": "false", "engine-cpu": "true", "log-driver": "", "log-opt": ""}
	for name, w := range want {
		if shown[name] != w {
			t.Errorf("--%s shows %q, want %q", name, shown[name], w)
		}
	}
	again := newSettings()
	var args []string
	for name, v := range shown {
		if v != "" {
			args = append(args, "--"+name+"="+v)
		}
	}
	if err := experiment.FlagSet("x", again).Parse(args); err != nil {
		t.Fatal(err)
	}
	if d := newSettings(); again.DurationS != d.DurationS || again.LagMs != d.LagMs || again.Bytes != d.Bytes || !slices.Equal(again.Configs, d.Configs) ||
		!slices.Equal(again.APIs, d.APIs) || again.ReadOnly != d.ReadOnly || !again.WrkGiven {
		t.Errorf("the defaults shown parse to %+v, not %+v", again, d)
	}
	s := newSettings()
	err := experiment.FlagSet("x", s).Parse([]string{"--duration", "250ms", "--configs", "file, ,file,none", "--api", "go", "--writable-root",
		"--log-opt", "mode=non-blocking", "--log-opt", "max-size=1m,x", "--memory", "1g"})
	if err != nil || s.DurationS != 0.25 || !slices.Equal(s.Configs, []string{"file", "none"}) || !slices.Equal(s.APIs, []string{"go"}) || s.ReadOnly ||
		s.LogOptions["max-size"] != "1m,x" || s.Bytes != 1<<30 || s.WrkGiven {
		t.Errorf("%+v %v", s, err)
	}
	if f := experiment.FlagSet("x", newSettings()).Lookup("engine-cpu"); !f.Value.(interface{ IsBoolFlag() bool }).IsBoolFlag() {
		t.Error("a switch marked given is no longer a switch")
	}
	if err := experiment.FlagSet("x", newSettings()).Parse([]string{"--log-driver", " "}); err == nil {
		t.Error("an empty --log-driver accepted")
	}
}

// The log driver's rules, one problem each.
func TestLogDriverRules(t *testing.T) {
	for _, c := range []struct {
		driver string
		opts   map[string]string
		want   string
	}{
		{"json-file", map[string]string{"mode": "sometimes"}, "--log-opt mode=sometimes"},
		{"none", map[string]string{"max-size": "1m"}, "the none log driver takes no options"},
		{"json-file", map[string]string{"": "x"}, "want key=value"},
	} {
		if err := experiment.CheckLogDriver(c.driver, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.driver, c.opts, err, c.want)
		}
	}
	if err := experiment.CheckLogDriver("local", map[string]string{"mode": "non-blocking"}); err != nil {
		t.Error(err)
	}
}

// A list's rules: some value, at most MaxListValues, each known and once.
func TestCheckList(t *testing.T) {
	known := []string{"a", "b"}
	many := slices.Repeat([]string{"a"}, experiment.MaxListValues+1)
	for _, c := range []struct {
		values []string
		want   string
	}{{nil, "none given"}, {many, "at most"}, {[]string{"a", "cobol"}, `unknown "cobol"`}, {[]string{"a", "b", "a"}, `"a" given twice`}} {
		if err := experiment.CheckList("x", c.values, known); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "--x") {
			t.Errorf("%v: %v, want %q", c.values, err, c.want)
		}
	}
}

// A manifest's parameters that fail their Check are a problem naming the flag, and are
// emptied: nothing downstream sizes anything by them.
func TestCheckManifestEmptiesWhatFails(t *testing.T) {
	res := &verify.Result{}
	l := newLimits()
	l.PidsLimit = 1 << 40
	if experiment.CheckManifest(res, l) || l.PidsLimit != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Msg, "--pids-limit") {
		t.Errorf("%+v %v", l, res.Problems)
	}
	if !experiment.CheckManifest(res, newLimits()) || len(res.Problems) != 1 {
		t.Errorf("good limits refused: %v", res.Problems)
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

// FormatSeconds spells what a flag takes, and says a forged manifest's 1e308 s as
// seconds rather than as an overflowed, negative duration.
func TestFormatSecondsNeverOverflows(t *testing.T) {
	for s, want := range map[float64]string{90: "1m30s", 0.5: "500ms", 1e308: "1e+308s", -1e308: "-1e+308s"} {
		if got := experiment.FormatSeconds(s); got != want {
			t.Errorf("FormatSeconds(%g) = %q, want %q", s, got, want)
		}
	}
}
