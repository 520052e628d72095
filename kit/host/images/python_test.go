package images

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/host/bases"
)

func TestPythonContextOfTheRealImage(t *testing.T) {
	files, sum, err := pythonContext(filepath.Join("..", "..", "..", PythonDir), bases.PythonTag)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Dockerfile", "rundir/", "app/logbench_api.py"} {
		if _, ok := files[name]; !ok {
			t.Errorf("context lacks %s", name)
		}
	}
	if !files["rundir/"].Dir || len(sum) != 64 {
		t.Errorf("rundir %+v, source digest %q", files["rundir/"], sum)
	}
	for name := range files {
		if strings.HasPrefix(name, "tests/") {
			t.Errorf("the tests are not part of the image: %s", name)
		}
	}
}

func TestPythonContextLeavesCachesOutAndChecksTheBase(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Dockerfile", "# comment\nFROM --platform=linux/amd64 logbench/python-base:bookworm\nCOPY app/ /app/\n")
	write("app/logbench_api.py", "print('hi')\n")
	write("app/lib/helper.py", "x = 1\n")
	write("app/__pycache__/logbench_api.cpython-311.pyc", "cache")
	write("app/stray.pyc", "cache")
	write("tests/test_x.py", "")

	files, sum1, err := pythonContext(dir, bases.PythonTag)
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(maps.Keys(files))
	want := []string{"Dockerfile", "app/lib/helper.py", "app/logbench_api.py", "rundir/"}
	if d := cmp.Diff(want, names); d != "" {
		t.Fatalf("context (-want +have):\n%s", d)
	}

	write("app/logbench_api.py", "print('changed')\n")
	if _, sum2, _ := pythonContext(dir, bases.PythonTag); sum2 == sum1 {
		t.Error("the source digest did not change with the program")
	}
	if _, _, err := pythonContext(dir, "logbench/python-base:other"); err == nil || !strings.Contains(err.Error(), "FROM") {
		t.Errorf("err = %v, want a FROM mismatch", err)
	}
}

func TestFirstFrom(t *testing.T) {
	for in, want := range map[string]string{
		"FROM a:b\nFROM c\n":                    "a:b",
		"# x\n  from --platform=$P base AS b\n": "base",
		"RUN true\n":                            "",
	} {
		if have := firstFrom([]byte(in)); have != want {
			t.Errorf("firstFrom(%q) = %q, want %q", in, have, want)
		}
	}
}
