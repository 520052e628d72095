package kube

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Builder builds the kit's images (kit/host/images on a Docker Engine): lab.Images.
type Builder interface {
	Build(ctx context.Context, platform string, names []string, progress io.Writer) (ids map[string]string, imgs []bundle.Image, err error)
}

// Images builds the kit's images where the kit builds them and checks that the node
// already holds every one, by the content-addressed tag the build gave it; the Pods
// run each image by that name (never pulled), and each run checks the ID the node
// ran. Without a registry to push to, a node that lacks an image is refused in one
// line that says how to import it.
type Images struct {
	Builder Builder
	Cluster *Cluster
	// Import is the command that puts images into the node's runtime, for the refusal
	// ("" names none).
	Import string
}

// Build builds the images, then maps each to the name the node holds it by.
func (i Images) Build(ctx context.Context, platform string, names []string, progress io.Writer) (map[string]string, []bundle.Image, error) {
	ids, imgs, err := i.Builder.Build(ctx, platform, names, progress)
	if err != nil {
		return nil, nil, err
	}
	k := i.Cluster
	n, err := k.cs.CoreV1().Nodes().Get(ctx, k.node, metav1.GetOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: %w", k.node, err)
	}
	held := map[string]bool{}
	for _, img := range n.Status.Images {
		for _, name := range img.Names {
			held[name] = true
		}
	}
	refs := map[string]string{}
	var missing []string
	for name, id := range ids {
		at := slices.IndexFunc(imgs, func(img bundle.Image) bool { return img.ID == id && img.Tag != "" })
		if at < 0 {
			return nil, nil, fmt.Errorf("image %s (%s) has no tag to run it by on node %s", name, id, k.node)
		}
		ref := Normalize(imgs[at].Tag)
		if !held[ref] {
			missing = append(missing, imgs[at].Tag)
			continue
		}
		refs[name] = ref
		k.expect[ref] = id
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		how := ""
		if i.Import != "" {
			how = "; import them with " + i.Import + " " + strings.Join(missing, " ")
		}
		return nil, nil, experiment.Usagef("node %s does not hold the images %s (no registry is given to pull them from)%s", k.node, strings.Join(missing, ", "), how)
	}
	return refs, imgs, nil
}
