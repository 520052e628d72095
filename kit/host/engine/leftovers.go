package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"
)

// labelled is a container or volume that carries Label, as the engine lists it.
type labelled struct {
	kind    Kind
	id      string // a container's ID; a volume's name
	name    string
	labels  map[string]string
	state   string // a container's: running, exited, ...
	joiner  bool   // a container in another one's network namespace
	mounted []string
}

// listLabelled lists the containers and volumes that carry Label (for runID, or any run
// when runID is empty). Containers that joined another's network namespace come first,
// so that removing in this order leaves no container another one depends on (Podman
// refuses to remove those).
func (e *Engine) listLabelled(ctx context.Context, runID string) (containers, volumes []labelled, err error) {
	f := labelFilter(runID)
	list, err := e.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return nil, nil, err
	}
	var owners []labelled
	for _, c := range list {
		l := labelled{kind: KindContainer, id: c.ID, labels: c.Labels, state: c.State,
			joiner: strings.HasPrefix(c.HostConfig.NetworkMode, "container:")}
		if len(c.Names) > 0 {
			l.name = strings.TrimPrefix(c.Names[0], "/")
		}
		for _, m := range c.Mounts {
			if m.Name != "" {
				l.mounted = append(l.mounted, m.Name)
			}
		}
		if l.joiner {
			containers = append(containers, l)
		} else {
			owners = append(owners, l)
		}
	}
	containers = append(containers, owners...)
	vols, err := e.cli.VolumeList(ctx, volume.ListOptions{Filters: f})
	if err != nil {
		return containers, nil, err
	}
	for _, v := range vols.Volumes {
		volumes = append(volumes, labelled{kind: KindVolume, id: v.Name, name: v.Name, labels: v.Labels})
	}
	return containers, volumes, nil
}

// FindOwn lists the containers and volumes the kit made under this host's key (Label,
// for runID or any run when runID is empty, and a mark that verifies), without removing
// them, in the order they can be removed: what RemoveLabelled would remove. Another
// user's runs, or a run under another key on the same engine, are not among them.
func (e *Engine) FindOwn(ctx context.Context, runID string) (Leftovers, error) {
	m, err := e.marker()
	if err != nil {
		return Leftovers{}, err
	}
	containers, volumes, err := e.listLabelled(ctx, runID)
	var found Leftovers
	for _, c := range containers {
		if m.check(c.kind, c.name, c.labels) == "" {
			found.Containers = append(found.Containers, c.id)
		}
	}
	for _, v := range volumes {
		if m.check(v.kind, v.name, v.labels) == "" {
			found.Volumes = append(found.Volumes, v.id)
		}
	}
	return found, err
}

func labelFilter(runID string) filters.Args {
	label := Label
	if runID != "" {
		label += "=" + runID
	}
	return filters.NewArgs(filters.Arg("label", label))
}

// RemoveLabelled removes what the kit made for runID (or for any run when runID is
// empty), running or not: what carries Label and a mark that verifies. It is a run's
// own cleanup; what carries the label without the kit's mark is left, whatever it is.
func (e *Engine) RemoveLabelled(ctx context.Context, runID string) (Leftovers, error) {
	m, err := e.marker()
	if err != nil {
		return Leftovers{}, err
	}
	containers, volumes, err := e.listLabelled(ctx, runID)
	if err != nil {
		return Leftovers{}, err
	}
	var gone Leftovers
	var errs []error
	// Containers first: a volume in use cannot be removed.
	var own []string
	for _, c := range containers {
		if m.check(c.kind, c.name, c.labels) == "" {
			own = append(own, c.id)
		}
	}
	removed := e.removeContainers(ctx, own, true)
	for _, id := range own {
		if err := removed[id]; err != nil && !alreadyGone(err) {
			errs = append(errs, err)
			continue
		}
		gone.Containers = append(gone.Containers, id)
	}
	for _, v := range volumes {
		if m.check(v.kind, v.name, v.labels) != "" {
			continue
		}
		if err := e.cli.VolumeRemove(ctx, v.id, true); err != nil && !alreadyGone(err) {
			errs = append(errs, err)
			continue
		}
		gone.Volumes = append(gone.Volumes, v.id)
	}
	return gone, errors.Join(errs...)
}

// Swept is one container or volume that Clean found carrying Label: removed, or left
// and why.
type Swept struct {
	Kind Kind
	ID   string // a container's ID; a volume's name
	Name string
	// Why it was left ("" when removed).
	Why string
}

// Sweep is what Clean removed and what it left.
type Sweep struct {
	Removed, Left []Swept
}

// Found says whether anything carried Label at all.
func (s Sweep) Found() bool { return len(s.Removed)+len(s.Left) > 0 }

// running is a container state in which removing it stops a process.
func running(state string) bool {
	return state == container.StateRunning || state == container.StatePaused || state == container.StateRestarting
}

// Clean removes what earlier invocations of the kit left on the engine: the stopped
// containers and unused volumes that carry Label and a mark that verifies under this
// host's key, and, with force, the kit's running containers too. Anything else that
// carries the label (a copied label, another host's or user's run, a kit before marks)
// is left whatever force says, and so is a volume the engine says is in use; each is
// named with the reason.
func (e *Engine) Clean(ctx context.Context, force bool) (Sweep, error) {
	m, err := e.marker()
	if err != nil {
		return Sweep{}, err
	}
	containers, volumes, err := e.listLabelled(ctx, "")
	if err != nil {
		return Sweep{}, err
	}
	var sweep Sweep
	var errs []error
	leave := func(l labelled, why string) {
		sweep.Left = append(sweep.Left, Swept{Kind: l.kind, ID: l.id, Name: l.name, Why: why})
	}
	var doomed []labelled
	for _, c := range containers {
		if why := m.check(c.kind, c.name, c.labels); why != "" {
			leave(c, "not made by this kit on this host: "+why)
			continue
		}
		switch {
		case c.state == container.StateRemoving:
			leave(c, "the engine is removing it already")
		case running(c.state) && !force:
			leave(c, c.state+": clean --force stops and removes the kit's running containers")
		default:
			doomed = append(doomed, c)
		}
	}
	ids := make([]string, len(doomed))
	for i, c := range doomed {
		ids[i] = c.id
	}
	// Without --force the engine itself refuses a container that started meanwhile.
	removed := e.removeContainers(ctx, ids, force)
	for _, c := range doomed {
		err := removed[c.id]
		switch {
		case err == nil || alreadyGone(err):
			sweep.Removed = append(sweep.Removed, Swept{Kind: c.kind, ID: c.id, Name: c.name})
		case cerrdefs.IsConflict(err):
			leave(c, "the engine refuses to remove it: "+err.Error())
		default:
			leave(c, "removing it failed: "+err.Error())
			errs = append(errs, fmt.Errorf("container %s: %w", c.name, err))
		}
	}
	for _, v := range volumes {
		if why := m.check(v.kind, v.name, v.labels); why != "" {
			leave(v, "not made by this kit on this host: "+why)
			continue
		}
		// Never forced: the engine refuses a volume a container still uses.
		err := e.cli.VolumeRemove(ctx, v.id, false)
		switch {
		case err == nil || alreadyGone(err):
			sweep.Removed = append(sweep.Removed, Swept{Kind: v.kind, ID: v.id, Name: v.name})
		case cerrdefs.IsConflict(err):
			leave(v, "in use: "+usedBy(containers, sweep.Removed, v.id))
		default:
			leave(v, "removing it failed: "+err.Error())
			errs = append(errs, fmt.Errorf("volume %s: %w", v.name, err))
		}
	}
	return sweep, errors.Join(errs...)
}

// dependentLinger bounds how long a container is asked again while the engine says it
// has dependents: Podman 4.3 refuses, for a moment, the owner of a network namespace
// whose joiner it has just removed (seen under load: "has dependent containers which
// must be removed before it: <the joiner>: container already exists").
const dependentLinger = 5 * time.Second

// removeContainers removes the containers ids, in order, and returns each one's error.
// One the engine refuses for its dependents is asked again once the others are gone:
// the order joiners first is only known where the engine's list gives each container's
// network mode, and Podman 4.3's does not.
func (e *Engine) removeContainers(ctx context.Context, ids []string, force bool) map[string]error {
	errs := make(map[string]error, len(ids))
	var later []string
	for _, id := range ids {
		err := e.cli.ContainerRemove(ctx, id, container.RemoveOptions{Force: force})
		if hasDependents(err) {
			later = append(later, id)
			continue
		}
		errs[id] = err
	}
	for _, id := range later {
		errs[id] = e.removeContainer(ctx, id, force)
	}
	return errs
}

// hasDependents says whether the engine refused to remove a container because another
// one depends on it (Podman's words).
func hasDependents(err error) bool {
	return err != nil && strings.Contains(err.Error(), "has dependent containers")
}

// removeContainer removes a container, asking again within dependentLinger while the
// engine names a dependent: the kit removes the joiners first, so a dependent it names
// then is one being removed.
func (e *Engine) removeContainer(ctx context.Context, id string, force bool) error {
	deadline := time.Now().Add(dependentLinger)
	for {
		err := e.cli.ContainerRemove(ctx, id, container.RemoveOptions{Force: force})
		if !hasDependents(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// usedBy names the labelled containers still there that mount volume, as far as the
// engine's list says.
func usedBy(containers []labelled, removed []Swept, volume string) string {
	var names []string
	for _, c := range containers {
		gone := slices.ContainsFunc(removed, func(r Swept) bool { return r.Kind == KindContainer && r.ID == c.id })
		if !gone && slices.Contains(c.mounted, volume) {
			names = append(names, "container "+c.name)
		}
	}
	if len(names) == 0 {
		return "the engine refuses to remove it"
	}
	return strings.Join(names, ", ")
}
