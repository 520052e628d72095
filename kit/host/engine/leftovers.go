package engine

import (
	"context"
	"strings"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"
)

// FindLabelled lists the containers and volumes that carry Label (for runID, or any
// run when runID is empty), without removing them. Containers that joined another's
// network namespace come first, so that removing in this order leaves no container
// another one depends on (Podman refuses to remove those).
func (e *Engine) FindLabelled(ctx context.Context, runID string) (Leftovers, error) {
	f := labelFilter(runID)
	var found Leftovers
	list, err := e.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return found, err
	}
	var owners []string
	for _, c := range list {
		if strings.HasPrefix(c.HostConfig.NetworkMode, "container:") {
			found.Containers = append(found.Containers, c.ID)
		} else {
			owners = append(owners, c.ID)
		}
	}
	found.Containers = append(found.Containers, owners...)
	vols, err := e.cli.VolumeList(ctx, volume.ListOptions{Filters: f})
	if err != nil {
		return found, err
	}
	for _, v := range vols.Volumes {
		found.Volumes = append(found.Volumes, v.Name)
	}
	return found, nil
}

func labelFilter(runID string) filters.Args {
	label := Label
	if runID != "" {
		label += "=" + runID
	}
	return filters.NewArgs(filters.Arg("label", label))
}
