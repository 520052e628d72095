package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportWritesOnePageBesideTheBundle(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	out, err := runApp(t, "report", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	page := filepath.Join(filepath.Dir(dir), "pi5.html")
	body, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "report: "+page) || strings.Count(string(body), "<svg") < 5 {
		t.Fatalf("output %s; %d plots", out, strings.Count(string(body), "<svg"))
	}
	// Not replaced unless asked.
	_, err = runApp(t, "report", dir)
	wantUsageError(t, err, "already exists")
	if out, err := runApp(t, "report", dir, "--force"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// An archive reports the same, to a page of the folder's name.
	if out, err := runApp(t, "archive", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	other := filepath.Join(t.TempDir(), "from-archive.html")
	if out, err := runApp(t, "report", dir+".tar.gz", "--out", other); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestReportOfABundleWithProblemsShowsThemAndFails(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	os.WriteFile(filepath.Join(dir, "extra.txt"), []byte("x"), 0o644)
	page := filepath.Join(t.TempDir(), "r.html")
	_, err := runApp(t, "report", dir, "--out", page)
	if err == nil || !strings.Contains(err.Error(), "does not verify (1 problems): the report shows them") {
		t.Fatalf("err = %v", err)
	}
	body, _ := os.ReadFile(page)
	if !strings.Contains(string(body), "extra.txt: not a bundle file") {
		t.Fatal("the page does not show the problem")
	}
}

func TestReportRejectsBadInput(t *testing.T) {
	_, err := runApp(t, "report")
	wantUsageError(t, err, "one or more bundles")
}

func TestReportDrawsSeveralBundlesOnOnePage(t *testing.T) {
	a := synthetic(t, "pi5", bundletestDefaults())
	b := synthetic(t, "laptop", bundletestDefaults())
	page := filepath.Join(t.TempDir(), "both.html")
	if out, err := runApp(t, "report", a, b, "--out", page); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	body, _ := os.ReadFile(page)
	html := string(body)
	for _, want := range []string{"<h1>logbench report: fifo-stall: pi5, laptop</h1>", "<h2>Hosts and parameters</h2>", "<th>pi5</th><th>laptop</th>", `id="percentiles"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// `report A B` draws every experiment's bundles on one page, the archived ones too.
func TestReportDrawsSeveralBundlesOfEveryExperiment(t *testing.T) {
	results := filepath.Join("..", "..", "results")
	for _, c := range []struct {
		name    string
		bundles []string
		want    string
	}{
		{"fifo-stall", []string{"2026-11-30-vm2/fifo-py.tar.gz", "2026-11-30-vm2/fifo-go.tar.gz"}, "Latency percentiles, slow reader</text>"},
		{"qps", []string{"2026-11-30-vm2/qps-final.tar.gz", "2026-11-30-vm2/qps-wrk.tar.gz"}, "NOT CONFIRMED"},
		{"line-cost", []string{"2026-11-30-vm2/lc-final.tar.gz", "2026-11-30-vm2/lc-final.tar.gz"}, "go: time per line</text>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "page.html")
			args := []string{"report", "--out", page}
			for _, b := range c.bundles {
				args = append(args, filepath.Join(results, b))
			}
			if out, err := runApp(t, args...); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			body, _ := os.ReadFile(page)
			if !strings.Contains(string(body), "<h1>logbench report: "+c.name+": ") || !strings.Contains(string(body), c.want) {
				t.Errorf("the page of %s lacks its title or %q", c.name, c.want)
			}
		})
	}
}
