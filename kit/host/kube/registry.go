package kube

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Saver writes images of a Docker Engine as `docker save` does (engine.Engine).
type Saver interface {
	SaveImages(ctx context.Context, refs []string, w io.Writer) error
}

// Registry is where the kit pushes its images for the nodes to pull (--registry
// HOST/PATH): a node then needs no image beforehand, and runs each by its digest, so
// that the content the kit built is the content the node ran, whatever the tag says
// later.
type Registry struct {
	repo name.Repository
	// Saver is the Docker Engine that built the images (set before Push).
	Saver Saver
}

// ParseRegistry reads --registry: a registry host (with its port) and a path under it,
// "127.0.0.1:5000/logbench" or "registry.example.com/team". A loopback or private
// address is spoken to over plain HTTP, as container runtimes do.
func ParseRegistry(s string) (*Registry, error) {
	repo, err := name.NewRepository(s, name.StrictValidation)
	if err != nil || strings.Contains(s, "://") || !strings.Contains(s, "/") {
		return nil, fmt.Errorf("--registry %q: want HOST[:PORT]/PATH, without a scheme, tag or digest", s)
	}
	return &Registry{repo: repo}, nil
}

// String is the registry as --registry gave it.
func (r *Registry) String() string { return r.repo.String() }

// Push copies the image the engine holds as tag (whose ID is id) to the registry, under
// the registry's path and the tag's repository ("logbench/api:abc" goes to
// HOST/PATH/logbench/api:abc), and returns the reference by digest a Pod pulls it by.
// The image pushed is checked to be the one the kit built: its configuration's digest
// is the engine's image ID.
func (r *Registry) Push(ctx context.Context, tag, id string) (string, error) {
	src, err := name.NewTag(tag)
	if err != nil {
		return "", fmt.Errorf("image %s: %w", tag, err)
	}
	f, err := os.CreateTemp("", "logbench-push-*.tar")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if err := r.Saver.SaveImages(ctx, []string{tag}, f); err != nil {
		return "", fmt.Errorf("saving image %s from the engine: %w", tag, err)
	}
	img, err := tarball.Image(func() (io.ReadCloser, error) { return os.Open(f.Name()) }, &src)
	if err != nil {
		return "", fmt.Errorf("reading image %s as the engine saved it: %w", tag, err)
	}
	config, err := img.ConfigName()
	if err != nil {
		return "", fmt.Errorf("image %s: %w", tag, err)
	}
	if config.String() != id {
		return "", fmt.Errorf("image %s: the engine saved %s, the kit built %s", tag, config, id)
	}
	dst, err := name.NewTag(r.repo.String() + "/" + src.RepositoryStr() + ":" + src.TagStr())
	if err != nil {
		return "", fmt.Errorf("image %s at --registry %s: %w", tag, r, err)
	}
	// Credentials are the Docker client's (~/.docker/config.json and its helpers), as
	// `docker push` would use them; a registry without any is written anonymously.
	if err := remote.Write(dst, img, remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
		return "", fmt.Errorf("pushing image %s to %s: %w", tag, dst, err)
	}
	digest, err := img.Digest()
	if err != nil {
		return "", err
	}
	return dst.Context().Digest(digest.String()).String(), nil
}
