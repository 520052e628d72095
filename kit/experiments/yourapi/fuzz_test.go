package yourapi_test

import (
	"testing"

	"github.com/logbench/logbench/internal/manifestfuzz"
)

// FuzzManifest: no manifest.json, whatever its bytes, makes verify, compare, report or
// archive of an archived bundle panic, or work without bound (see manifestfuzz). The
// seeds under testdata/fuzz/FuzzManifest are the archived manifest edited where a
// reader could break: keys twice or in two cases, numbers huge, negative or past each
// parameter's cap, unknown values, deep nesting, long strings.
func FuzzManifest(f *testing.F) {
	base := manifestfuzz.Load(f, "../../../results/2026-12-01-vm/your-api-stdlib.tar.gz")
	f.Add(base.Manifest())
	f.Fuzz(base.Run)
}
