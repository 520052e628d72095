package images

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
)

// PythonDir holds the Python API's Dockerfile and its program (app/), relative to the
// source tree.
const PythonDir = "images/api-python"

// PythonBuilt is the Python API's image. Its Built has Role "api", so it can stand in
// for the Go API in a runner's images.
type PythonBuilt struct {
	Built
	// PythonVersion is the interpreter's version ("3.11.2"), as the base image records it.
	PythonVersion string `json:"python_version"`
}

// Runtime is the interpreter as the Python API reports itself ("Python 3.11.2").
func (p PythonBuilt) Runtime() string { return "Python " + p.PythonVersion }

// BuildPython makes sure the Python API's image exists for platform: it ensures the
// base image of that platform (building it from Debian packages if the engine lacks
// it, see kit/host/bases) and builds images/api-python on it, reusing an image whose
// inputs have not changed. BinarySHA256 is the digest of the program's files.
func (b *Builder) BuildPython(ctx context.Context, platform string, base bases.Options) (PythonBuilt, error) {
	baseImg, err := base.Ensure(ctx, b.Engine, bases.Python, platform, b.Progress)
	if err != nil {
		return PythonBuilt{}, err
	}
	if want := "linux/" + baseImg.Architecture; platform != want {
		return PythonBuilt{}, fmt.Errorf("python api for %s: the base image %s is %s", platform, baseImg.Tag, want)
	}
	version := baseImg.Versions[bases.PythonVersionLabel]
	if version == "" {
		return PythonBuilt{}, fmt.Errorf("image %s has no %s label: not a logbench Python base", baseImg.Tag, bases.PythonVersionLabel)
	}
	// The Dockerfile starts FROM the unsuffixed name: point it at this platform's base
	// for this build. The per-platform tag stays, so no platform's base is lost.
	if err := b.Engine.Tag(ctx, baseImg.ID, bases.PythonTag); err != nil {
		return PythonBuilt{}, err
	}
	files, sourceSum, err := pythonContext(filepath.Join(b.SourceDir, PythonDir), bases.PythonTag)
	if err != nil {
		return PythonBuilt{}, err
	}
	out := PythonBuilt{Built: Built{Role: "api", Platform: platform, BinarySHA256: sourceSum}, PythonVersion: version}

	// The base's ID is an input: a rebuilt base gives a new image.
	img, reused, err := b.ensure(ctx, "logbench/api-python", baseImg.ID, engine.BuildSpec{
		Platform: platform,
		Files:    files,
		Labels: map[string]string{
			"io.logbench.role":           "api",
			"io.logbench.implementation": "python",
			"io.logbench.source-sha256":  sourceSum,
			bases.PythonVersionLabel:     version,
		},
	})
	if err != nil {
		return PythonBuilt{}, err
	}
	out.Image, out.Reused = img, reused
	return out, nil
}

// pythonContext reads the build context of the Python API from dir (bytecode caches
// left out), checking that the Dockerfile builds on baseTag.
func pythonContext(dir, baseTag string) (map[string]engine.ContextFile, string, error) {
	files, sum, err := apiContext(dir, "python api image", "app/logbench_api.py", func(d fs.DirEntry) bool {
		return d.Name() != "__pycache__" && !strings.HasSuffix(d.Name(), ".pyc")
	})
	if err != nil {
		return nil, "", err
	}
	if from := firstFrom(files["Dockerfile"].Body); from != baseTag {
		return nil, "", fmt.Errorf("python api image: %s/Dockerfile starts FROM %q, want the base %q", dir, from, baseTag)
	}
	return files, sum, nil
}

// apiContext reads the build context of an API in an interpreted language from dir:
// the Dockerfile, every file of app/ that keep accepts (a folder it refuses is skipped
// whole), and the empty rundir/ that becomes the volume's mount point; and the digest of
// the program's files. entry is the file the image runs, which must be there; what names
// the image in errors.
func apiContext(dir, what, entry string, keep func(fs.DirEntry) bool) (map[string]engine.ContextFile, string, error) {
	dockerfile, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", what, err)
	}
	files := map[string]engine.ContextFile{
		"Dockerfile": {Body: dockerfile, Mode: 0o644},
		"rundir/":    {Dir: true, Mode: 0o755},
	}
	source := sha256.New()
	err = filepath.WalkDir(filepath.Join(dir, "app"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !keep(d) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		files[rel] = engine.ContextFile{Body: body, Mode: 0o644}
		fmt.Fprintf(source, "%s\x00%x\x00", rel, sha256.Sum256(body)) // WalkDir goes in lexical order
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", what, err)
	}
	if _, ok := files[entry]; !ok {
		return nil, "", fmt.Errorf("%s: no %s in %s", what, entry, dir)
	}
	return files, hex.EncodeToString(source.Sum(nil)), nil
}

// firstFrom is the image named by a Dockerfile's first FROM instruction.
func firstFrom(dockerfile []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(dockerfile))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && strings.EqualFold(fields[0], "FROM") {
			for _, f := range fields[1:] {
				if !strings.HasPrefix(f, "--") { // skip --platform=...
					return f
				}
			}
		}
	}
	return ""
}
