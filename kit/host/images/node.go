package images

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
)

// NodeDir holds the Node.js API's Dockerfile and its program (app/), relative to the
// source tree.
const NodeDir = "images/api-node"

// NodeImage is the name a plan gives the Node.js API's image (experiment.Plan.Images).
const NodeImage = "api-node"

// NodeTag is the name images/api-node/Dockerfile starts FROM by default (its BASE
// argument); the kit points it at the base of the platform being built, as it does for
// the Python base.
const NodeTag = "logbench/node-base:bookworm"

// NodeBuilt is the Node.js API's image, with the versions of node, express and morgan
// its base records (bases.NodeVersionLabel, ...).
type NodeBuilt struct {
	Built
	Versions map[string]string `json:"versions"`
}

// Runtime names node, express and morgan as the base packages them.
func (n NodeBuilt) Runtime() string {
	return fmt.Sprintf("Node.js %s, express %s, morgan %s", n.Versions[bases.NodeVersionLabel],
		n.Versions[bases.ExpressVersionLabel], n.Versions[bases.MorganVersionLabel])
}

// BuildNode makes sure the Node.js API's image exists for platform, on the Node base of
// that platform (built from Debian packages if the engine lacks it). BinarySHA256 is
// the digest of the program's files.
func (b *Builder) BuildNode(ctx context.Context, platform string, base bases.Options) (NodeBuilt, error) {
	baseImg, err := base.Ensure(ctx, b.Engine, bases.Node, platform, b.Progress)
	if err != nil {
		return NodeBuilt{}, err
	}
	if want := "linux/" + baseImg.Architecture; platform != want {
		return NodeBuilt{}, fmt.Errorf("node api for %s: the base image %s is %s", platform, baseImg.Tag, want)
	}
	for _, label := range []string{bases.NodeVersionLabel, bases.ExpressVersionLabel, bases.MorganVersionLabel} {
		if baseImg.Versions[label] == "" {
			return NodeBuilt{}, fmt.Errorf("image %s has no %s label: not a logbench Node base", baseImg.Tag, label)
		}
	}
	if err := b.Engine.Tag(ctx, baseImg.ID, NodeTag); err != nil {
		return NodeBuilt{}, err
	}
	files, sourceSum, err := nodeContext(filepath.Join(b.SourceDir, NodeDir))
	if err != nil {
		return NodeBuilt{}, err
	}
	labels := map[string]string{
		"io.logbench.role":           "api",
		"io.logbench.implementation": "node",
		"io.logbench.source-sha256":  sourceSum,
	}
	for k, v := range baseImg.Versions {
		labels[k] = v
	}
	out := NodeBuilt{Built: Built{Role: "api", Platform: platform, BinarySHA256: sourceSum}, Versions: baseImg.Versions}
	// The base's ID is an input: a rebuilt base gives a new image.
	img, reused, err := b.ensure(ctx, "logbench/api-node", baseImg.ID, engine.BuildSpec{Platform: platform, Files: files, Labels: labels})
	if err != nil {
		return NodeBuilt{}, err
	}
	out.Image, out.Reused = img, reused
	return out, nil
}

// nodeContext reads the build context of the Node.js API from dir: the Dockerfile,
// every file of app/ and the empty rundir/ that becomes the volume's mount point; and
// the digest of the program's files.
func nodeContext(dir string) (map[string]engine.ContextFile, string, error) {
	dockerfile, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		return nil, "", fmt.Errorf("node api image: %w", err)
	}
	files := map[string]engine.ContextFile{
		"Dockerfile": {Body: dockerfile, Mode: 0o644},
		"rundir/":    {Dir: true, Mode: 0o755},
	}
	source := sha256.New()
	err = filepath.WalkDir(filepath.Join(dir, "app"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
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
		return nil, "", fmt.Errorf("node api image: %w", err)
	}
	if _, ok := files["app/logbench_api.js"]; !ok {
		return nil, "", fmt.Errorf("node api image: no app/logbench_api.js in %s", dir)
	}
	return files, hex.EncodeToString(source.Sum(nil)), nil
}
