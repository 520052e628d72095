package fifostall_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/verify"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// judged says where the kit's recomputation of a run's figures comes from, up to the
// lines of the run's requests.
const judged = "recomputed from the row's observed columns and requests.csv lines "

// small is a quick synthetic bundle: 2 modes x 2 readers, 1 round of 1 s at 20 req/s.
func small() *fifostalltest.Bundle {
	return fifostalltest.New(fifostalltest.Options{Modes: []string{"short1", "json-queue"}, Rounds: 1, Duration: time.Second})
}

// saved writes b to a fresh folder named "bundle".
func saved(t *testing.T, b *fifostalltest.Bundle) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	if err := fifostalltest.Save(b, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func verifyDir(t *testing.T, dir string) *verify.Result {
	t.Helper()
	files, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fifostall.Tabular.Verify(files)
}

func TestAGoodBundleVerifies(t *testing.T) {
	dir := saved(t, small())
	res := verifyDir(t, dir)
	if !res.OK() || len(res.Notes) > 0 {
		t.Fatalf("problems: %v\nnotes: %v", res.Problems, res.Notes)
	}
	want := verify.Counts{Files: 7, Runs: 4, Verified: 4, Trusted: 4, Conditions: 4}
	if res.Counts != want {
		t.Fatalf("counts %+v, want %+v", res.Counts, want)
	}
	if !strings.HasPrefix(res.Summary(), "OK: bundle: 7 files match SHA256SUMS; fifo-stall: 4 runs (4 verified, 4 trusted, 0 redone, 0 on a noisy host), 4 conditions, 80 requests, 12 container rows") {
		t.Fatalf("summary %q", res.Summary())
	}
	if fifostalltest.Of(res) == nil || len(fifostalltest.Of(res).Runs) != 4 || len(fifostalltest.Of(res).Runs[0].Requests) != 20 {
		t.Fatalf("the bundle as read: %+v", fifostalltest.Of(res))
	}
	// coreutils agrees that the checksums hold.
	if _, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command("sha256sum", "--strict", "-c", bundle.SumsFile)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sha256sum -c: %v\n%s", err, out)
		}
	}
}

func TestAFailedRunIsDataNotAProblem(t *testing.T) {
	b := fifostalltest.New(fifostalltest.Options{Modes: []string{"json-queue"}, Readers: []string{"slow"}, Rounds: 2, Duration: time.Second, FailRun: 2})
	res := verifyDir(t, saved(t, b))
	if !res.OK() || res.Counts.Verified != 1 {
		t.Fatalf("problems %v, counts %+v", res.Problems, res.Counts)
	}
}

// table is a CSV file as cells, to edit one value by column name.
type table struct {
	header []string
	rows   [][]string
}

func readTable(t *testing.T, path string) *table {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return &table{header: recs[0], rows: recs[1:]}
}

func (tb *table) col(t *testing.T, name string) int {
	t.Helper()
	i := slices.Index(tb.header, name)
	if i < 0 {
		t.Fatalf("no column %s", name)
	}
	return i
}

func (tb *table) write(t *testing.T, path string) {
	t.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(tb.header)
	w.WriteAll(tb.rows)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// edit sets one cell (row counts from 0, after the header) and returns the old value.
func edit(t *testing.T, dir, file string, row int, column, value string) string {
	t.Helper()
	tb := readTable(t, filepath.Join(dir, file))
	c := tb.col(t, column)
	old := tb.rows[row][c]
	tb.rows[row][c] = value
	tb.write(t, filepath.Join(dir, file))
	return old
}

// cell reads one cell.
func cell(t *testing.T, dir, file string, row int, column string) string {
	t.Helper()
	tb := readTable(t, filepath.Join(dir, file))
	return tb.rows[row][tb.col(t, column)]
}

// resum rewrites SHA256SUMS for the files as they are now: what a careful forger does,
// so that only the cross-file checks can tell.
func resum(t *testing.T, dir string) {
	t.Helper()
	var buf bytes.Buffer
	names := slices.Clone(fifostalltest.DataFiles)
	for _, name := range bundle.OptionalFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		sum := sha256.Sum256(body)
		fmt.Fprintf(&buf, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	if err := os.WriteFile(filepath.Join(dir, bundle.SumsFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sumOf(t *testing.T, path string) string {
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// TestVerifyCatchesEveryCorruption corrupts a bundle each way a user can and wants each
// caught by the precise problem (and, where a forger fixed SHA256SUMS, by nothing else
// than the invariant).
func TestVerifyCatchesEveryCorruption(t *testing.T) {
	base := small()
	firstRun := base.Runs[0].Run
	for _, tc := range []struct {
		name string
		// corrupt changes the saved bundle and returns the problems that must be found.
		corrupt func(t *testing.T, dir string) []string
		// onlyInvariants: no checksum problem may be reported (SHA256SUMS was fixed).
		onlyInvariants bool
	}{
		{"a flipped byte", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, fifostall.RequestsFile)
			want := sumOf(t, path)
			body, _ := os.ReadFile(path)
			body[len(body)/2] ^= 0x01
			os.WriteFile(path, body, 0o644)
			return []string{fmt.Sprintf("requests.csv: SHA-256: have %s, want %s (SHA256SUMS line 5; %d bytes)", sumOf(t, path), want, len(body))}
		}, false},
		{"a truncated CSV", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, fifostall.RunsFile)
			body, _ := os.ReadFile(path)
			cut := bytes.LastIndexByte(body[:len(body)-1], '\n') + 40
			os.WriteFile(path, body[:cut], 0o644)
			return []string{"runs.csv: SHA-256: have ", "runs.csv line 5: 3 fields, want "}
		}, false},
		{"a truncated CSV at a line's end, sums fixed", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, fifostall.RequestsFile)
			body, _ := os.ReadFile(path)
			cut := bytes.LastIndexByte(body[:len(body)-1], '\n') + 1
			os.WriteFile(path, body[:cut], 0o644)
			resum(t, dir)
			last := base.Runs[len(base.Runs)-1].Run
			return []string{fmt.Sprintf("runs.csv line 5 (run %s): requests: have 20, want 19 (%s62-80, ", last.RunID, judged)}
		}, true},
		{"a dropped file", func(t *testing.T, dir string) []string {
			os.Remove(filepath.Join(dir, fifostall.TimelineFile))
			return []string{"timeline.csv: missing (SHA256SUMS line 7 lists it)"}
		}, false},
		{"a dropped SHA256SUMS", func(t *testing.T, dir string) []string {
			os.Remove(filepath.Join(dir, bundle.SumsFile))
			return []string{"SHA256SUMS: missing: nothing can be checked against it"}
		}, false},
		{"an extra file", func(t *testing.T, dir string) []string {
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hi"), 0o644)
			return []string{"notes.txt: not a bundle file (a fifo-stall bundle holds exactly manifest.json, runs.csv, requests.csv, containers.csv, timeline.csv, conditions.csv, datapackage.json, probes.csv, pods.csv, SHA256SUMS)"}
		}, false},
		{"an extra folder and a symbolic link", func(t *testing.T, dir string) []string {
			os.Mkdir(filepath.Join(dir, "plots"), 0o755)
			os.Symlink("/etc/passwd", filepath.Join(dir, "passwd"))
			return []string{"plots/ (a folder): not a bundle file", "passwd (a symbolic link): not a bundle file"}
		}, false},
		{"a bundle file replaced by a symbolic link", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, fifostall.ConditionsFile)
			os.Rename(path, path+".real")
			os.Symlink(fifostall.ConditionsFile+".real", path)
			return []string{"conditions.csv (a symbolic link): not a bundle file", "conditions.csv: missing (SHA256SUMS line 1 lists it)", "conditions.csv.real: not a bundle file"}
		}, false},
		{"one latency edited, sums fixed", func(t *testing.T, dir string) []string {
			old := edit(t, dir, fifostall.RequestsFile, 3, "latency_ms", "99999")
			resum(t, dir)
			_ = old
			return []string{
				fmt.Sprintf("runs.csv line 2 (run %s): max_ms: have %s, want 99999 (%s2-21, ", firstRun.RunID, verify.Number(float64(firstRun.MaxMs)), judged),
				fmt.Sprintf("runs.csv line 2 (run %s): p99_ms: have %s, want 99999", firstRun.RunID, verify.Number(float64(firstRun.P99Ms))),
				fmt.Sprintf("conditions.csv line 2 (conditions go/%s/%s): max_ms: have %s, want 99999 (derived again from runs.csv)",
					firstRun.Mode, firstRun.Reader, verify.Number(float64(firstRun.MaxMs))),
			}
		}, true},
		{"a run_id nobody knows, sums fixed", func(t *testing.T, dir string) []string {
			edit(t, dir, fifostall.RequestsFile, 0, "run_id", "go-ghost-r9")
			resum(t, dir)
			return []string{
				`requests.csv line 2 (run_id go-ghost-r9): run_id: no row of runs.csv has this run_id`,
				fmt.Sprintf("runs.csv line 2 (run %s): requests: have 20, want 19", firstRun.RunID),
			}
		}, true},
		{"a verified run whose digests differ, sums fixed", func(t *testing.T, dir string) []string {
			bad := strings.Repeat("0", 64)
			edit(t, dir, fifostall.RunsFile, 1, "sha256_reader", bad)
			resum(t, dir)
			run := base.Runs[1].Run
			return []string{fmt.Sprintf("runs.csv line 3 (run %s): sha256_reader: have %s, want %.72s (a verified run read what was written (sha256_writer))", run.RunID, bad, run.SHA256Writer)}
		}, true},
		{"a verified run that lost bytes, sums fixed", func(t *testing.T, dir string) []string {
			run := base.Runs[1].Run
			edit(t, dir, fifostall.RunsFile, 1, "bytes_read", fmt.Sprint(run.BytesWritten-1))
			resum(t, dir)
			return []string{fmt.Sprintf("runs.csv line 3 (run %s): bytes_read: have %d, want %d (a verified run read every byte written (bytes_written))", run.RunID, run.BytesWritten-1, run.BytesWritten)}
		}, true},
		{"a backlog edited, sums fixed", func(t *testing.T, dir string) []string {
			run := base.Runs[1].Run
			edit(t, dir, fifostall.RunsFile, 1, "backlog_max_bytes", "1")
			resum(t, dir)
			return []string{fmt.Sprintf("runs.csv line 3 (run %s): backlog_max_bytes: have 1, want %d (%s22-41, containers.csv lines 5-7, timeline.csv lines 42-81)", run.RunID, run.BacklogMaxBytes, judged)}
		}, true},
		{"a count in the manifest edited, sums fixed", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, bundle.ManifestFile)
			body, _ := os.ReadFile(path)
			os.WriteFile(path, bytes.Replace(body, []byte(`"runs_verified": 4`), []byte(`"runs_verified": 3`), 1), 0o644)
			resum(t, dir)
			return []string{"manifest.json: runs_verified: have 3, want 4 (rows of runs.csv with verified true)"}
		}, true},
		{"a pooled p99 edited, sums fixed", func(t *testing.T, dir string) []string {
			old := edit(t, dir, fifostall.ConditionsFile, 3, "p99_ms", "1.5")
			resum(t, dir)
			c := base.Conditions[3]
			return []string{fmt.Sprintf("conditions.csv line 5 (conditions go/%s/%s): p99_ms: have 1.5, want %s", c.Mode, c.Reader, old)}
		}, true},
		{"a run's count edited, sums fixed", func(t *testing.T, dir string) []string {
			edit(t, dir, fifostall.RunsFile, 0, "errors", "2")
			resum(t, dir)
			return []string{fmt.Sprintf("runs.csv line 2 (run %s): errors: have 2, want 0 (%s2-21, ", firstRun.RunID, judged)}
		}, true},
		{"an unknown schema version, sums fixed", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, bundle.ManifestFile)
			body, _ := os.ReadFile(path)
			os.WriteFile(path, bytes.Replace(body, []byte(`"schema_version": 1`), []byte(`"schema_version": 99`), 1), 0o644)
			resum(t, dir)
			return []string{"manifest.json: schema_version: have 99, want 1 (the only version this kit reads)"}
		}, true},
		{"a manifest that is not JSON, sums fixed", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, bundle.ManifestFile)
			body, _ := os.ReadFile(path)
			os.WriteFile(path, bytes.Replace(body, []byte(`"command"`), []byte(`command`), 1), 0o644)
			resum(t, dir)
			return []string{"manifest.json line 6: not valid JSON: invalid character 'c'"}
		}, true},
		{"a value that is not a number, sums fixed", func(t *testing.T, dir string) []string {
			edit(t, dir, fifostall.RunsFile, 2, "p99_ms", "fast")
			resum(t, dir)
			return []string{`runs.csv line 4: p99_ms: "fast": not a number or empty`}
		}, true},
		{"a duplicated run, sums fixed", func(t *testing.T, dir string) []string {
			tb := readTable(t, filepath.Join(dir, fifostall.RunsFile))
			tb.rows = append(tb.rows, tb.rows[0])
			tb.write(t, filepath.Join(dir, fifostall.RunsFile))
			resum(t, dir)
			return []string{fmt.Sprintf(`runs.csv line 6 (run_id %s): run_id: again (first on line 2)`, firstRun.RunID)}
		}, true},
		{"an unknown column, sums fixed", func(t *testing.T, dir string) []string {
			tb := readTable(t, filepath.Join(dir, fifostall.TimelineFile))
			tb.header[2] = "offset_ms"
			tb.write(t, filepath.Join(dir, fifostall.TimelineFile))
			resum(t, dir)
			return []string{`timeline.csv line 1: offset_ms: not a column of this schema`}
		}, true},
		{"a malformed SHA256SUMS line", func(t *testing.T, dir string) []string {
			path := filepath.Join(dir, bundle.SumsFile)
			body, _ := os.ReadFile(path)
			lines := strings.SplitAfter(string(body), "\n")
			lines[1] = "deadbeef  containers.csv\n"
			os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
			return []string{"SHA256SUMS line 2: not `<sha256>  <file>`: deadbeef  containers.csv", "containers.csv: not listed in SHA256SUMS"}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := saved(t, base)
			want := tc.corrupt(t, dir)
			res := verifyDir(t, dir)
			if res.OK() {
				t.Fatal("verify found no problem")
			}
			var have []string
			for _, p := range res.Problems {
				have = append(have, p.String())
				if strings.Contains(p.String(), "\n") {
					t.Errorf("a problem on more than one line: %q", p)
				}
				if tc.onlyInvariants && (p.Column == "SHA-256" || strings.Contains(p.String(), "listed")) {
					t.Errorf("SHA256SUMS was fixed, yet: %s", p)
				}
			}
			for _, w := range want {
				found := false
				for _, h := range have {
					found = found || strings.Contains(h, w)
				}
				if !found {
					t.Errorf("no problem says %q; have:\n  %s", w, strings.Join(have, "\n  "))
				}
			}
			if !strings.HasPrefix(res.Summary(), "FAILED: ") {
				t.Errorf("summary %q", res.Summary())
			}
		})
	}
}

func TestAColumnAddedByALaterKitIsANoteNotAProblem(t *testing.T) {
	dir := saved(t, small())
	// A bundle from before the kit wrote wall_s: the column is simply not there.
	tb := readTable(t, filepath.Join(dir, fifostall.RunsFile))
	c := tb.col(t, "wall_s")
	tb.header = slices.Delete(tb.header, c, c+1)
	for i := range tb.rows {
		tb.rows[i] = slices.Delete(tb.rows[i], c, c+1)
	}
	tb.write(t, filepath.Join(dir, fifostall.RunsFile))
	// That kit's datapackage.json described the columns it wrote.
	pkg := fifostall.Tabular.DataPackage()
	for i, r := range pkg.Resources {
		if r.Path == fifostall.RunsFile {
			pkg.Resources[i].Schema.Fields = slices.DeleteFunc(r.Schema.Fields, func(f bundle.SchemaField) bool { return f.Name == "wall_s" })
		}
	}
	body, _ := json.Marshal(pkg)
	os.WriteFile(filepath.Join(dir, bundle.DataPackageFile), body, 0o644)
	resum(t, dir)
	res := verifyDir(t, dir)
	if !res.OK() || len(res.Notes) != 1 || !strings.Contains(res.Notes[0].String(), "runs.csv: wall_s: missing: written by a kit before") {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
	// But a column verification rests on is a problem.
	tb = readTable(t, filepath.Join(dir, fifostall.RequestsFile))
	c = tb.col(t, "latency_ms")
	tb.header = slices.Delete(tb.header, c, c+1)
	for i := range tb.rows {
		tb.rows[i] = slices.Delete(tb.rows[i], c, c+1)
	}
	tb.write(t, filepath.Join(dir, fifostall.RequestsFile))
	resum(t, dir)
	res = verifyDir(t, dir)
	if res.OK() || !strings.Contains(res.Problems[0].String(), "requests.csv: latency_ms: missing column") {
		t.Fatalf("problems %v", res.Problems)
	}
}

func TestAChangedModelIsANote(t *testing.T) {
	dir := saved(t, small())
	edit(t, dir, fifostall.ConditionsFile, 3, "predicted_drain_s", "7")
	resum(t, dir)
	res := verifyDir(t, dir)
	if !res.OK() || len(res.Notes) != 1 || !strings.Contains(res.Notes[0].String(), "predicted_drain_s: have 7, want ") {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
}

func TestProblemsHaveEveryPartInPlace(t *testing.T) {
	for _, tc := range []struct {
		p    verify.Problem
		want string
	}{
		{verify.Problem{File: "runs.csv", Line: 3, Key: "run r1", Column: "p99_ms", Have: "5", Want: "4", Msg: "recomputed"}, "runs.csv line 3 (run r1): p99_ms: have 5, want 4 (recomputed)"},
		{verify.Problem{File: "timeline.csv", Msg: "missing"}, "timeline.csv: missing"},
		{verify.Problem{File: "manifest.json", Column: "complete", Have: "true", Want: "false"}, "manifest.json: complete: have true, want false"},
	} {
		if have := tc.p.String(); have != tc.want {
			t.Errorf("have %q, want %q", have, tc.want)
		}
	}
}

// TestAForgedTrustFlagIsCaught: send_lag_trusted is derived, not believed. A bundle
// whose flags were all set to true, with SHA256SUMS recomputed, does not verify; neither
// does one whose manifest bound was loosened without the flags following.
func TestAForgedTrustFlagIsCaught(t *testing.T) {
	b := small()
	b.Manifest.Parameters.MaxSendLagP99Ms = 0.05 // below every run's lag (0.12 ms): none trusted
	for i := range b.Runs {
		r := &b.Runs[i]
		r.Run = fifostall.RunFigures(r.Run, r.Requests, r.Containers, r.Timeline, 0.05)
	}
	dir := saved(t, b)
	if res := verifyDir(t, dir); !res.OK() {
		t.Fatalf("the honest bundle: %v", res.Problems)
	}
	if cell(t, dir, fifostall.RunsFile, 0, "send_lag_trusted") != "false" {
		t.Fatal("the fixture's runs should be untrusted under a 0.05 ms bound")
	}
	for row := range 4 {
		edit(t, dir, fifostall.RunsFile, row, "send_lag_trusted", "true")
	}
	resum(t, dir)
	res := verifyDir(t, dir)
	// Each forged flag is named, and each condition's count of trusted runs, which the
	// kit derives again from the runs as the file has them.
	if len(res.Problems) != 8 {
		t.Fatalf("want the 4 forged flags and the 4 conditions' counts named, got %v", res.Problems)
	}
	for _, p := range res.Problems[:4] {
		if p.File != fifostall.RunsFile || p.Column != "send_lag_trusted" || p.Have != "true" || p.Want != "false" || !strings.HasPrefix(p.Msg, judged) {
			t.Errorf("problem %+v", p)
		}
	}
	for _, p := range res.Problems[4:] {
		if p.File != fifostall.ConditionsFile || p.Column != "runs_trusted" {
			t.Errorf("problem %+v", p)
		}
	}
}

// retried is small() under a 0.05 ms bound (every run untrusted) whose first run was
// performed twice: attempt 1 superseded, attempt 2 the round's run, as a matrix with
// retries leaves it.
func retried(t *testing.T) string {
	t.Helper()
	b := small()
	b.Manifest.Parameters.MaxSendLagP99Ms = 0.05
	b.Manifest.Parameters.Retries = 2
	for i := range b.Runs {
		r := &b.Runs[i]
		r.Run = fifostall.RunFigures(r.Run, r.Requests, r.Containers, r.Timeline, 0.05)
	}
	first := b.Runs[0]
	redone := fifostall.Rows{Run: first.Run}
	redone.Run.RunID = first.Run.RunID[:len(first.Run.RunID)-6] + "a1a1a1" // another run of its condition and round
	redone.Run.Attempt, redone.Run.Superseded = 1, true
	for _, q := range first.Requests {
		q.RunID = redone.Run.RunID
		redone.Requests = append(redone.Requests, q)
	}
	for _, c := range first.Containers {
		c.RunID = redone.Run.RunID
		redone.Containers = append(redone.Containers, c)
	}
	for _, s := range first.Timeline {
		s.RunID = redone.Run.RunID
		redone.Timeline = append(redone.Timeline, s)
	}
	b.Runs[0].Run.Attempt = 2
	// Attempt 1 ran first, in the first run's place: every run after it starts later.
	shift := time.Duration((first.Run.WallS + 1) * float64(time.Second))
	for i := range b.Runs {
		at, err := time.Parse(time.RFC3339Nano, b.Runs[i].Run.StartedUTC)
		if err != nil {
			t.Fatal(err)
		}
		b.Runs[i].Run.StartedUTC = at.Add(shift).UTC().Format(time.RFC3339Nano)
	}
	b.Manifest.FinishedUTC = b.Manifest.FinishedUTC.Add(shift)
	b.Runs = append([]fifostall.Rows{redone}, b.Runs...)
	b.Manifest.RunsCompleted++
	b.Manifest.RunsVerified++
	b.Manifest.RunsSuperseded = 1
	return saved(t, b)
}

// TestASupersededRunIsKeptAndCountsNowhere: the honest bundle verifies, its condition
// counts one run and one redone, and its trust line says so.
func TestASupersededRunIsKeptAndCountsNowhere(t *testing.T) {
	dir := retried(t)
	res := verifyDir(t, dir)
	if !res.OK() {
		t.Fatalf("the honest bundle: %v", res.Problems)
	}
	if res.Counts.Runs != 5 || res.Counts.Superseded != 1 || res.Counts.Trusted != 0 {
		t.Fatalf("counts %+v", res.Counts)
	}
	if cell(t, dir, fifostall.ConditionsFile, 0, "runs") != "1" || cell(t, dir, fifostall.ConditionsFile, 0, "runs_superseded") != "1" ||
		cell(t, dir, fifostall.ConditionsFile, 0, "runs_trusted") != "0" {
		t.Fatalf("condition of the redone run: runs %s, superseded %s", cell(t, dir, fifostall.ConditionsFile, 0, "runs"), cell(t, dir, fifostall.ConditionsFile, 0, "runs_superseded"))
	}
	trust := res.Trust
	if len(trust) != 4 || !strings.HasPrefix(trust[0], "go/short1/fast: 1/1 verified, 0/1 lag-trusted, 1 redone; STILL UNTRUSTED RUNS") {
		t.Fatalf("trust %q", trust)
	}
}

// TestAForgedSupersededOrTrustCountIsCaught: each derived mark of the retry rule is
// recomputed: a superseded run counted again, a condition's runs_trusted raised, a run
// marked superseded though its lag held the bound; and so is the p99 over runs.
func TestAForgedSupersededOrTrustCountIsCaught(t *testing.T) {
	for _, tc := range []struct {
		name   string
		forge  func(dir string)
		column string
	}{
		{"a superseded run counted again", func(dir string) { edit(t, dir, fifostall.RunsFile, 0, "superseded", "false") }, "superseded"},
		{"runs_trusted raised", func(dir string) { edit(t, dir, fifostall.ConditionsFile, 0, "runs_trusted", "1") }, "runs_trusted"},
		{"p99_resolved forged", func(dir string) {
			edit(t, dir, fifostall.ConditionsFile, 1, "p99_resolved", map[string]string{"true": "false", "false": "true"}[cell(t, dir, fifostall.ConditionsFile, 1, "p99_resolved")])
		}, "p99_resolved"},
		// The p99 over runs that every output states is recomputed like the pooled one.
		{"p99_run_mean_ms forged", func(dir string) { edit(t, dir, fifostall.ConditionsFile, 1, "p99_run_mean_ms", "0.001") }, "p99_run_mean_ms"},
		{"a trusted run marked superseded", func(dir string) {
			// A bound of 1 ms, as small() has it, trusts every run: none may be redone.
			os.RemoveAll(dir)
			if err := fifostalltest.Save(small(), dir); err != nil {
				t.Fatal(err)
			}
			edit(t, dir, fifostall.RunsFile, 2, "superseded", "true")
		}, "superseded"},
		{"host_noisy forged", func(dir string) { edit(t, dir, fifostall.RunsFile, 1, "host_noisy", "true") }, "host_noisy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := retried(t)
			tc.forge(dir)
			resum(t, dir)
			res := verifyDir(t, dir)
			found := false
			for _, p := range res.Problems {
				found = found || p.Column == tc.column
			}
			if res.OK() || !found {
				t.Fatalf("want a problem in %s, got %v", tc.column, res.Problems)
			}
		})
	}
}
