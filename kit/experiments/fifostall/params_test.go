package fifostall_test

import (
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestParametersAreHeldToTheirFlagsRules: a manifest's parameters are checked by the
// rule of the flag that sets them. A send-lag bound raised to 50 ms (every run
// lag-trusted) is past what --max-send-lag accepts; a bound of 0 is an earlier kit's
// "none recorded" only in a manifest without a client topology, which that kit did
// not record either.
func TestParametersAreHeldToTheirFlagsRules(t *testing.T) {
	for _, c := range []struct {
		old, new, want string
	}{
		{`"max_send_lag_p99_ms": 1`, `"max_send_lag_p99_ms": 50`, "--max-send-lag 50ms: want more than 0 and at most 10ms"},
		{`"max_send_lag_p99_ms": 1`, `"max_send_lag_p99_ms": 0`, "--max-send-lag 0s: want more than 0"},
		{`"client_topology": "shared"`, `"client_topology": "both"`, `--client-topology "both": want shared or split`},
		{`"reader_memory_bytes": 268435456`, `"reader_memory_bytes": 1`, "--reader-memory 1B: want a size of at least 6MiB"},
	} {
		dir := archivedDir(t, "2026-11-30-vm2/fifo-py.tar.gz")
		setManifest(t, dir, c.old, c.new)
		resum(t, dir)
		res := verifyDir(t, dir)
		found := false
		for _, p := range res.Problems {
			found = found || p.File == bundle.ManifestFile && p.Column == "parameters" && strings.HasPrefix(p.Msg, c.want)
		}
		if res.OK() || !found {
			t.Errorf("%s: want a problem of the parameters %q; have %v", c.new, c.want, res.Problems)
		}
	}
	var p fifostall.Params
	if err := p.Check(); err == nil {
		t.Error("empty parameters pass")
	}
}
