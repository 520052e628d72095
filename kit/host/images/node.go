package images

import (
	"context"
	"fmt"
	"io/fs"
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

// nodeContext reads the build context of the Node.js API from dir: every file of app/.
func nodeContext(dir string) (map[string]engine.ContextFile, string, error) {
	return apiContext(dir, "node api image", "app/logbench_api.js", func(fs.DirEntry) bool { return true })
}
