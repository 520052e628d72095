package tabular_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// TestAColumnAKitAddedMustBeThereWhenTheManifestSaysThatKit: a column an earlier kit's
// bundles lack is read as absent, unless the rule says the bundle is that kit's or
// later's; then its absence is a problem naming the column.
func TestAColumnAKitAddedMustBeThereWhenTheManifestSaysThatKit(t *testing.T) {
	const kit = "it counted what it wrote"
	exp := tiny()
	exp.Own.Later = map[string]string{"written": kit}
	exp.Rules = func(c *tabular.Check[*tinyParams, TinyRow]) { c.AddedBy(kit, "the test says so") }
	files, err := bundle.ReadFolder(tinyBundle(t, exp, "reproduce", []int{1}, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	missing := func(res *verify.Result) bool {
		return slices.ContainsFunc(res.Problems, func(p verify.Problem) bool {
			return p.File == "runs.csv" && p.Column == "written" && strings.Contains(p.Msg, verify.RuleMeasured)
		})
	}
	if res := exp.Verify(files); !res.OK() {
		t.Fatalf("the bundle with the column: %v", res.Problems)
	}
	tb := forgery.Read(t, files, "runs.csv")
	at := slices.Index(tb.Header, "written")
	tb.Header = slices.Delete(tb.Header, at, at+1)
	for i := range tb.Rows {
		tb.Rows[i] = slices.Delete(tb.Rows[i], at, at+1)
	}
	tb.Write(files, "runs.csv")
	delete(files.Data, bundle.DataPackageFile)
	forgery.Resum(files)
	if res := exp.Verify(files); !missing(res) {
		t.Errorf("the bundle without the column: %v, want written missing", res.Problems)
	}
}
