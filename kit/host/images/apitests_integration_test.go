package images_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
)

// The interpreted APIs' own unit tests (images/api-python/tests, images/api-node/tests)
// run inside the API images the kit builds, on the interpreter and packages the
// experiments use, not on whatever python3 or node the machine has: a test image adds
// the tests beside the image's /app, and one container runs them, unprivileged, on a
// read-only root with the run's volume as its temporary directory and loopback only.

func TestPythonAPIUnitTestsInItsImage(t *testing.T) {
	runAPITests(t, "python", images.PythonDir, "TMPDIR=/run/logbench exec /usr/bin/python3 -m unittest discover -s /tests 2>&1",
		func(b *images.Builder, ctx context.Context, platform string) (string, error) {
			img, err := b.BuildPython(ctx, platform, bases.Options{})
			return img.ID, err
		})
}

func TestNodeAPIUnitTestsInItsImage(t *testing.T) {
	runAPITests(t, "node", images.NodeDir, "cd / && TMPDIR=/run/logbench exec /usr/bin/node --test /tests/ 2>&1",
		func(b *images.Builder, ctx context.Context, platform string) (string, error) {
			img, err := b.BuildNode(ctx, platform, bases.Options{})
			return img.ID, err
		})
}

// kitFilesForAPITests are the kit's files the APIs' tests hold their own output against,
// which they read from the kit's tree beside them: /tests/../../.. is / in the image.
var kitFilesForAPITests = []string{
	"kit/incontainer/linecost/libraries.go",         // the line-cost registry's templates
	"kit/contract/contract.go",                      // the control documents' field names
	"kit/contract/linecost.go",                      // the line-cost document's field names
	"kit/contract/testdata/numbered_lines.txt",      // contract.NumberedLine's bytes
	"kit/contract/testdata/numbered_lines_long.txt", // contract.NumberedLineOf's, of other lengths
}

func runAPITests(t *testing.T, api, dir, script string, build func(*images.Builder, context.Context, string) (string, error)) {
	eng := enginetest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	builder, platform := enginetest.Builder(t, eng, testWriter{t})
	source := builder.SourceDir
	apiImage, err := build(builder, ctx, platform)
	if err != nil {
		t.Fatal(err)
	}

	files := map[string]engine.ContextFile{
		"Dockerfile": {Body: []byte("FROM " + apiImage + "\nCOPY tests/ /tests/\nCOPY kit/ /kit/\n"), Mode: 0o644},
	}
	for _, name := range kitFilesForAPITests {
		body, err := os.ReadFile(filepath.Join(source, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = engine.ContextFile{Body: body, Mode: 0o644}
	}
	testsDir := filepath.Join(source, dir, "tests")
	err = filepath.WalkDir(testsDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(path, "__pycache__") {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(testsDir, path)
		files["tests/"+filepath.ToSlash(rel)] = engine.ContextFile{Body: body, Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	testImage, err := eng.Build(ctx, engine.BuildSpec{Tag: "logbench/api-" + api + "-tests:local", Platform: platform, Files: files}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}

	var id [3]byte
	rand.Read(id[:])
	spec := experiment.PodSpec{
		RunID: "apitests-" + api + "-" + hex.EncodeToString(id[:]), Conductor: "tests",
		MountPath: "/run/logbench", ResultPath: "/run/logbench/none", User: "65532:65532", PidsLimit: 256,
		Containers:  []experiment.ContainerSpec{{Role: "tests", Image: testImage.ID, Entrypoint: []string{"/bin/sh", "-c", script}}},
		CollectLogs: []string{"tests"},
	}
	res, err := eng.RunPod(ctx, spec, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Logs["tests"])
	if len(res.Exits) != 1 || res.Exits[0].ExitCode != 0 || res.Exits[0].Running {
		t.Fatalf("the %s API's tests failed in its image (%+v):\n%s", api, res.Exits, out)
	}
	t.Logf("the %s API's tests in its image:\n%s", api, lastLines(out, 12))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// testWriter sends the build's progress to the test log, a line at a time.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
