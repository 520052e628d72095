package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/docker/docker/pkg/jsonmessage"
)

// SaveImages writes the images refs name (tags or IDs) to w as one tar, in the format
// `docker save` writes and `docker load` reads, with their tags.
func (e *Engine) SaveImages(ctx context.Context, refs []string, w io.Writer) error {
	rc, err := e.cli.ImageSave(ctx, refs)
	if err != nil {
		return fmt.Errorf("saving images: %w", err)
	}
	defer rc.Close()
	if _, err := io.Copy(w, rc); err != nil {
		return fmt.Errorf("saving images: %w", err)
	}
	return nil
}

// LoadImages loads a tar of images written by SaveImages (or `docker save`) and returns
// what the engine says it loaded ("logbench/api:local-arm64", or an ID for an untagged
// image).
func (e *Engine) LoadImages(ctx context.Context, r io.Reader) ([]string, error) {
	resp, err := e.cli.ImageLoad(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("loading images: %w", err)
	}
	defer resp.Body.Close()
	var out strings.Builder
	if err := jsonmessage.DisplayJSONMessagesStream(resp.Body, &out, 0, false, nil); err != nil {
		return nil, fmt.Errorf("loading images: %w", err)
	}
	var loaded []string
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		for _, prefix := range []string{"Loaded image: ", "Loaded image ID: "} {
			if ref, ok := strings.CutPrefix(line, prefix); ok {
				loaded = append(loaded, ref)
			}
		}
	}
	return loaded, nil
}
