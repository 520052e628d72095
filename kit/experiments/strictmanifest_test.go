package experiments_test

import (
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestVerifyRefusesAManifestReadersReadDifferently: in every experiment's archived
// bundle, a manifest that Go's reader and another would read differently (a key twice,
// two keys differing only in case, a key in another case than its field's) or that has
// a field the experiment's manifest does not, is one problem of manifest.json naming
// the key, and the bundle does not verify, whoever it then claims to be.
func TestVerifyRefusesAManifestReadersReadDifferently(t *testing.T) {
	for _, archive := range []string{"2026-11-30-vm2/fifo-go.tar.gz", "2026-12-01-vm/qps-docker.tar.gz", "2026-11-30-vm2/lc-final.tar.gz", "2026-12-01-vm/your-api-stdlib.tar.gz", "2026-11-30-vm/go-2026-11-30-vm.tar.gz", "2026-12-02-vm/log-driver.tar.gz"} {
		files := open(t, archive)
		original := string(files.Data[bundle.ManifestFile])
		for _, tc := range []struct{ name, old, new, want string }{
			{"another experiment in capitals", `"schema_version": 1,`, `"schema_version": 1, "EXPERIMENT": "qps", "experiment": "fifo-stall",`, "differ only in case"},
			{"the experiment twice", `"schema_version": 1,`, `"schema_version": 1, "experiment": "qps", "experiment": "line-cost",`, "appears twice"},
			{"a key in capitals", `"kit_version"`, `"KIT_VERSION"`, `whose field is "kit_version"`},
			{"schema_version twice", `"schema_version": 1,`, `"schema_version": 1, "schema_version": 2,`, "appears twice"},
			{"an unknown field", `"schema_version": 1,`, `"schema_version": 1, "connections": -10,`, "not a field of the schema"},
			{"an unknown parameter", `"parameters": {`, `"parameters": {"threads": 100000,`, "not a field of the schema"},
			{"a parameter twice", `"parameters": {`, `"parameters": {"rounds": 100000, "rounds": 1, "rounds": 3,`, "appears twice"},
			{"an engine fact in capitals", `"cpus":`, `"CPUs": 64, "cpus":`, "differ only in case"},
		} {
			t.Run(archive+"/"+tc.name, func(t *testing.T) {
				if !strings.Contains(original, tc.old) {
					t.Fatalf("no %s in the manifest", tc.old)
				}
				files.Data[bundle.ManifestFile] = []byte(strings.Replace(original, tc.old, tc.new, 1))
				forgery.Resum(files)
				exp, err := experiments.Of(files)
				if err != nil {
					t.Fatal(err)
				}
				res := exp.Verify(files)
				if res.OK() {
					t.Fatalf("verified: %s", res.Summary())
				}
				var of []string
				for _, p := range res.Problems {
					if p.File == bundle.ManifestFile {
						of = append(of, p.String())
					}
				}
				if len(of) != 1 || !strings.Contains(of[0], tc.want) {
					t.Fatalf("manifest problems %q, want one saying %q", of, tc.want)
				}
			})
		}
		files.Data[bundle.ManifestFile] = []byte(original)
	}
}
