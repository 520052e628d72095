package engine

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/pkg/jsonmessage"
)

// ContextFile is one file of an image's build context.
type ContextFile struct {
	Body []byte
	Mode int64
	// Dir makes an empty directory instead of a file.
	Dir bool
}

// BuildSpec is one image to build with the classic builder from an in-memory context.
type BuildSpec struct {
	Tag      string
	Platform string // "linux/arm64"
	Files    map[string]ContextFile
	Labels   map[string]string
}

// Image is a built image as the engine reports it.
type Image struct {
	ID           string `json:"id"`
	Tag          string `json:"tag"`
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	SizeBytes    int64  `json:"size_bytes"`
}

// LookupImage returns the image tagged ref, if the engine has it.
func (e *Engine) LookupImage(ctx context.Context, ref string) (Image, bool, error) {
	ins, err := e.cli.ImageInspect(ctx, ref)
	if cerrdefs.IsNotFound(err) {
		return Image{}, false, nil
	}
	if err != nil {
		return Image{}, false, err
	}
	return Image{ID: ins.ID, Tag: ref, Architecture: ins.Architecture, OS: ins.Os, SizeBytes: ins.Size}, true, nil
}

// Build builds spec and returns the image. The build's own output goes to progress.
func (e *Engine) Build(ctx context.Context, spec BuildSpec, progress io.Writer) (Image, error) {
	buildContext, err := contextTar(spec.Files)
	if err != nil {
		return Image{}, err
	}
	resp, err := e.cli.ImageBuild(ctx, buildContext, build.ImageBuildOptions{
		Version:     build.BuilderV1, // BuildKit needs a session the raw API does not give
		Tags:        []string{spec.Tag},
		Platform:    spec.Platform,
		Labels:      spec.Labels,
		Remove:      true,
		ForceRemove: true,
		// A step of the kit's builds never needs a network (nothing is pulled or
		// downloaded), and the engine's default bridge may be absent (a second dockerd
		// started with --bridge none on the same host deletes docker0).
		NetworkMode: "none",
	})
	if err != nil {
		return Image{}, fmt.Errorf("building %s: %w", spec.Tag, err)
	}
	defer resp.Body.Close()
	var id string
	aux := func(msg jsonmessage.JSONMessage) {
		var r build.Result
		if msg.Aux != nil && json.Unmarshal(*msg.Aux, &r) == nil && r.ID != "" {
			id = r.ID
		}
	}
	if err := jsonmessage.DisplayJSONMessagesStream(resp.Body, progress, 0, false, aux); err != nil {
		return Image{}, fmt.Errorf("building %s: %w", spec.Tag, err)
	}
	// Inspect what this build made: a concurrent build of the same inputs may have
	// moved the tag to its own, equivalent image meanwhile.
	ref := spec.Tag
	if id != "" {
		ref = id
	}
	img, ok, err := e.LookupImage(ctx, ref)
	if err == nil && !ok {
		err = errors.New("the engine reports no image after the build")
	}
	if err != nil {
		return Image{}, fmt.Errorf("building %s: %w", spec.Tag, err)
	}
	img.Tag = spec.Tag
	return img, nil
}

// contextTar writes files in a fixed order with fixed times and owners, so the same
// inputs give the same layers.
func contextTar(files map[string]ContextFile) (io.Reader, error) {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	epoch := time.Unix(0, 0)
	for _, name := range names {
		f := files[name]
		hdr := &tar.Header{Name: name, Mode: f.Mode, Size: int64(len(f.Body)), ModTime: epoch, Format: tar.FormatPAX}
		if f.Dir {
			hdr.Typeflag, hdr.Name, hdr.Size = tar.TypeDir, strings.TrimSuffix(name, "/")+"/", 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.Body); err != nil {
			return nil, err
		}
	}
	return &buf, tw.Close()
}

// Tag gives image id the extra name ref (e.g. "logbench/api:local").
func (e *Engine) Tag(ctx context.Context, id, ref string) error {
	if err := e.cli.ImageTag(ctx, id, ref); err != nil {
		return fmt.Errorf("tagging %s as %s: %w", id, ref, err)
	}
	return nil
}

// ImageID is the ID of the image ref names on the engine, and whether there is one.
func (e *Engine) ImageID(ctx context.Context, ref string) (string, bool, error) {
	img, found, err := e.LookupImage(ctx, ref)
	return img.ID, found, err
}
