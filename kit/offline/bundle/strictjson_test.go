package bundle_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/offline/bundle"
)

type strictInner struct {
	Connections int               `json:"connections"`
	Bounds      map[string]int64  `json:"bounds,omitempty"`
	When        time.Time         `json:"when"`
	Any         any               `json:"any,omitempty"`
	List        []strictListEntry `json:"list,omitempty"`
	Ignored     string            `json:"-"`
}

type strictListEntry struct {
	Role string `json:"role"`
}

type strictEmbedded struct {
	Shared string `json:"shared"`
}

type strictManifest struct {
	strictEmbedded
	Experiment string      `json:"experiment"`
	Parameters strictInner `json:"parameters"`
	Plain      string      // no tag: its Go name
}

func TestDecodeStrictTakesWhatTheKitWrites(t *testing.T) {
	body := `{"shared":"s","experiment":"fifo-stall","parameters":{"connections":10,"bounds":{"fast":0,"slow":1},"when":"2026-11-30T10:00:00Z",
		"any":{"x":[1,{"y":2}]},"list":[{"role":"api"},{"role":"reader"}]},"Plain":"p"}`
	var m strictManifest
	if err := bundle.DecodeStrict([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	if m.Experiment != "fifo-stall" || m.Parameters.Connections != 10 || m.Shared != "s" || m.Plain != "p" || len(m.Parameters.List) != 2 || m.Parameters.Bounds["slow"] != 1 {
		t.Fatalf("%+v", m)
	}
}

// TestDecodeStrictRefusesWhatReadersReadDifferently: every key that Go's reader and
// another would take for different values is refused, with the path of the key.
func TestDecodeStrictRefusesWhatReadersReadDifferently(t *testing.T) {
	for _, tc := range []struct{ name, body, path, want string }{
		{"duplicate", `{"experiment":"fifo-stall","experiment":"qps"}`, "experiment", "appears twice"},
		{"case variant", `{"experiment":"fifo-stall","EXPERIMENT":"qps"}`, "EXPERIMENT", `keys "experiment" and "EXPERIMENT" differ only in case`},
		{"case variant, the Kelvin sign", `{"parameters":{"bounds":{"k":1,"\u212a":2}}}`, "parameters.bounds.\u212a", "differ only in case"},
		{"lone case variant", `{"EXPERIMENT":"qps"}`, "EXPERIMENT", `whose field is "experiment"`},
		{"nested duplicate", `{"parameters":{"connections":10,"connections":100000}}`, "parameters.connections", "appears twice"},
		{"nested case variant", `{"parameters":{"Connections":100000}}`, "parameters.Connections", `whose field is "connections"`},
		{"in a list", `{"parameters":{"list":[{"role":"api"},{"role":"a","ROLE":"b"}]}}`, "parameters.list[1].ROLE", "differ only in case"},
		{"in a value of any shape", `{"parameters":{"any":{"a":1,"a":2}}}`, "parameters.any.a", "appears twice"},
		{"in a map", `{"parameters":{"bounds":{"fast":1,"fast":2}}}`, "parameters.bounds.fast", "appears twice"},
		// Go reads a map's keys exactly; other readers may fold them: refused at every level.
		{"case variant in a map", `{"parameters":{"bounds":{"fast":1,"FAST":2}}}`, "parameters.bounds.FAST", "differ only in case"},
		{"unknown", `{"experiment":"qps","extra":1}`, "extra", "not a field of the schema"},
		{"nested unknown", `{"parameters":{"connections":1,"threads":4}}`, "parameters.threads", "not a field of the schema"},
		{"a field tagged -", `{"parameters":{"Ignored":"x"}}`, "parameters.Ignored", "not a field of the schema"},
		{"a second value", `{"experiment":"qps"} {"experiment":"fifo-stall"}`, "", "more after the JSON value"},
		{"invalid UTF-8", "{\"experiment\":\"q\xffps\"}", "", "not valid UTF-8"},
		{"too deep", `{"parameters":{"any":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`, "parameters.any" + strings.Repeat("[0]", 30), "nested more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m strictManifest
			err := bundle.DecodeStrict([]byte(tc.body), &m)
			var je *bundle.JSONError
			if !errors.As(err, &je) || je.Path != tc.path || !strings.Contains(je.Msg, tc.want) {
				t.Fatalf("err = %v (path %q), want %q at %q", err, pathOf(je), tc.want, tc.path)
			}
		})
	}
}

func pathOf(e *bundle.JSONError) string {
	if e == nil {
		return "<none>"
	}
	return e.Path
}

// TestExperimentOfReadsOneMeaning: which experiment wrote a manifest does not depend
// on the reader: duplicate and case-variant keys are refused before it is read, while
// the experiment's own fields, which Common does not know, are let through.
func TestExperimentOfReadsOneMeaning(t *testing.T) {
	for _, body := range []string{
		`{"schema_version":1,"experiment":"fifo-stall","EXPERIMENT":"qps"}`,
		`{"schema_version":1,"experiment":"fifo-stall","experiment":"qps"}`,
		`{"schema_version":1,"Experiment":"qps"}`,
		`{"schema_version":1,"experiment":"qps","parameters":{"apis":["go"],"APIs":["node"]}}`,
	} {
		if name, err := bundle.ExperimentOf([]byte(body)); err == nil {
			t.Errorf("%s: read as %q", body, name)
		}
	}
	name, err := bundle.ExperimentOf([]byte(`{"schema_version":1,"experiment":"qps","parameters":{"connections":10}}`))
	if err != nil || name != "qps" {
		t.Fatalf("%q %v", name, err)
	}
}
