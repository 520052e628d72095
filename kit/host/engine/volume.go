package engine

import (
	"context"
	"fmt"

	cerrdefs "github.com/containerd/errdefs"
)

// VolumeExists says whether the engine has a named volume: a plan that writes to a
// volume the user names refuses one that is not there before anything starts.
func (e *Engine) VolumeExists(ctx context.Context, name string) (bool, error) {
	_, err := e.cli.VolumeInspect(ctx, name)
	switch {
	case err == nil:
		return true, nil
	case cerrdefs.IsNotFound(err):
		return false, nil
	}
	return false, fmt.Errorf("engine: volume %s: %w", name, err)
}
