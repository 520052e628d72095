package logdriver_test

import (
	"bytes"
	"testing"

	"github.com/logbench/logbench/internal/manifestfuzz"
)

// FuzzManifest: no manifest.json, whatever its bytes, makes verify, compare, report or
// archive of the archived bundle panic, or work without bound (see manifestfuzz). The
// seeds are the archived manifest and edits of it where a reader could break: the
// matrix's lists and rates huge or negative, the model's inputs out of range.
func FuzzManifest(f *testing.F) {
	base := manifestfuzz.Load(f, "../../../results/2026-12-02-vm/log-driver.tar.gz")
	m := base.Manifest()
	f.Add(m)
	for _, edit := range [][2]string{
		{`"rates_rps": [`, `"rates_rps": [1e308, `},
		{`"queue_messages": `, `"queue_messages": -`},
		{`"consumer_rate_bytes_per_s": `, `"consumer_rate_bytes_per_s": 1`},
		{`"duration_s": `, `"duration_s": 9e`},
		{`"buffer_sizes_bytes": [`, `"buffer_sizes_bytes": [0, `},
		{`"drivers": [`, `"drivers": ["gelf", `},
		{`"apis": [`, `"apis": [],"x": [`},
		{`"rounds": `, `"rounds": 1000`},
	} {
		f.Add(bytes.Replace(m, []byte(edit[0]), []byte(edit[1]), 1))
	}
	f.Fuzz(base.Run)
}
