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

// Images builds the kit's images where the kit builds them. With a Registry, it pushes
// each there and the Pods pull it by digest. Without one, it checks that the node
// already holds every image, by the content-addressed tag the build gave it, and the
// Pods run each by that name (never pulled); a node that lacks an image is refused in
// one line that says how to import it. Either way each run checks what the node ran.
type Images struct {
	Builder Builder
	Cluster *Cluster
	// Registry, when not nil, is where the images are pushed for the node to pull.
	Registry *Registry
	// Import is the command that puts images into the node's runtime, for the refusal
	// ("" names none).
	Import string
}

// Build builds the images, then maps each to the name the node holds it by.
// The files container's image (FilesImage) is among them, plan or not: the bundle
// records it as every image its Pods ran.
func (i Images) Build(ctx context.Context, platform string, names []string, progress io.Writer) (map[string]string, []bundle.Image, error) {
	if !slices.Contains(names, FilesImage) {
		names = append(slices.Clip(names), FilesImage)
	}
	ids, imgs, err := i.Builder.Build(ctx, platform, names, progress)
	if err != nil {
		return nil, nil, err
	}
	k := i.Cluster
	if i.Registry != nil {
		refs, imgs, err := i.push(ctx, ids, imgs, progress)
		k.files = refs[FilesImage]
		return refs, imgs, err
	}
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
	k.files = refs[FilesImage]
	return refs, imgs, nil
}

// push pushes every image to the registry and maps each to its reference by digest,
// which the bundle's image records as pulled.
func (i Images) push(ctx context.Context, ids map[string]string, imgs []bundle.Image, progress io.Writer) (map[string]string, []bundle.Image, error) {
	refs := map[string]string{}
	for name, id := range ids {
		at := slices.IndexFunc(imgs, func(img bundle.Image) bool { return img.ID == id && img.Tag != "" })
		if at < 0 {
			return nil, nil, fmt.Errorf("image %s (%s) has no tag to push it by", name, id)
		}
		ref, err := i.Registry.Push(ctx, imgs[at].Tag, id)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(progress, "pushed %s as %s\n", imgs[at].Tag, ref)
		refs[name] = ref
		i.Cluster.expect[ref] = id
		for j := range imgs {
			if imgs[j].ID == id {
				imgs[j].Pulled = ref
			}
		}
	}
	return refs, imgs, nil
}
