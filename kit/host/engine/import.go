package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/pkg/jsonmessage"
)

// ImportImage makes an image of one layer from rootfs, a tar stream of a root file
// system, and tags it. changes are Dockerfile instructions applied to its config
// (ENV, LABEL, CMD, ENTRYPOINT, USER, WORKDIR, ...). The image has the engine's own
// platform.
func (e *Engine) ImportImage(ctx context.Context, rootfs io.Reader, tag string, changes []string) (Image, error) {
	resp, err := e.cli.ImageImport(ctx, image.ImportSource{Source: rootfs, SourceName: "-"}, tag,
		image.ImportOptions{Changes: changes, Message: "imported by logbench"})
	if err != nil {
		return Image{}, fmt.Errorf("importing %s: %w", tag, err)
	}
	defer resp.Close()
	// The answer is a stream of JSON messages; a failure arrives as one of them.
	if err := jsonmessage.DisplayJSONMessagesStream(resp, io.Discard, 0, false, nil); err != nil {
		return Image{}, fmt.Errorf("importing %s: %w", tag, err)
	}
	img, ok, err := e.LookupImage(ctx, tag)
	if err == nil && !ok {
		err = errors.New("the engine reports no image after the import")
	}
	if err != nil {
		return Image{}, fmt.Errorf("importing %s: %w", tag, err)
	}
	return img, nil
}

// ImageLabels returns the labels of the image ref's config.
func (e *Engine) ImageLabels(ctx context.Context, ref string) (map[string]string, error) {
	ins, err := e.cli.ImageInspect(ctx, ref)
	if err != nil {
		return nil, err
	}
	if ins.Config == nil {
		return map[string]string{}, nil
	}
	return ins.Config.Labels, nil
}
