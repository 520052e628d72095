// Package fakeengine is a Docker Engine API server that holds containers and volumes in
// memory and lists and removes them as an engine does, for tests of what the kit lists
// and removes without an engine: the same client, the same requests, the same refusals
// (a running container without force, a volume in use).
package fakeengine

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"
)

// Container is a container the engine holds.
type Container struct {
	ID, Name string
	State    string // running, exited, created, ...
	Labels   map[string]string
	// NetworkMode is "container:<id>" for one in another's network namespace.
	NetworkMode string
	// Volumes are the named volumes it mounts.
	Volumes []string
	// LingeringDependent is how many times removing it is refused for a dependent that
	// is gone already, as Podman 4.3 refuses, for a moment, the owner of a network
	// namespace whose joiner it has just removed (an error of status 500, no conflict).
	LingeringDependent int
}

// Volume is a named volume the engine holds.
type Volume struct {
	Name   string
	Labels map[string]string
}

// Engine is the fake engine.
type Engine struct {
	mu         sync.Mutex
	containers []*Container
	volumes    []*Volume
	removed    []string
	// listsNoHostConfig is Podman 4.3's container list, which says nothing of a
	// container's network mode.
	listsNoHostConfig bool
}

// ListLikePodman makes the container list leave out each container's network mode, as
// Podman 4.3's does: nothing in it says which container joined another's namespace.
func (e *Engine) ListLikePodman() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.listsNoHostConfig = true
}

// joinerOf names a container in c's network namespace, or "".
func (e *Engine) joinerOf(c *Container) string {
	for _, j := range e.containers {
		if j.NetworkMode == "container:"+c.ID || j.NetworkMode == "container:"+c.Name {
			return j.ID
		}
	}
	return ""
}

// Start serves a fake engine until the test ends; host is its address
// (tcp://127.0.0.1:PORT), for DOCKER_HOST.
func Start(t testing.TB) (e *Engine, host string) {
	t.Helper()
	e = &Engine{}
	srv := httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(srv.Close)
	return e, "tcp://" + strings.TrimPrefix(srv.URL, "http://")
}

// Add puts containers and volumes on the engine.
func (e *Engine) Add(containers []Container, volumes []Volume) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range containers {
		e.containers = append(e.containers, &c)
	}
	for _, v := range volumes {
		e.volumes = append(e.volumes, &v)
	}
}

// Removed lists what was removed, in order: "container NAME", "volume NAME".
func (e *Engine) Removed() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.removed)
}

// Has says whether the engine still holds a container or volume of that name.
func (e *Engine) Has(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.ContainsFunc(e.containers, func(c *Container) bool { return c.Name == name }) ||
		slices.ContainsFunc(e.volumes, func(v *Volume) bool { return v.Name == name })
}

// version strips the API version from a request's path: /v1.41/containers/json.
var version = regexp.MustCompile(`^/v[0-9]+\.[0-9]+`)

func (e *Engine) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	path := version.ReplaceAllString(r.URL.Path, "")
	switch {
	case path == "/_ping":
		w.Header().Set("API-Version", "1.41")
		w.Write([]byte("OK"))
	case r.Method == http.MethodGet && path == "/containers/json":
		f, err := filters.FromJSON(r.URL.Query().Get("filters"))
		if err != nil {
			refuse(w, http.StatusBadRequest, err.Error())
			return
		}
		all := r.URL.Query().Get("all") == "1" || r.URL.Query().Get("all") == "true"
		list := []container.Summary{}
		for _, c := range e.containers {
			if !all && c.State != container.StateRunning || !labelsMatch(f, c.Labels) || !mountsMatch(f, c.Volumes) {
				continue
			}
			s := container.Summary{ID: c.ID, Names: []string{"/" + c.Name}, Labels: c.Labels, State: c.State}
			if !e.listsNoHostConfig {
				s.HostConfig.NetworkMode = c.NetworkMode
			}
			for _, v := range c.Volumes {
				s.Mounts = append(s.Mounts, container.MountPoint{Type: "volume", Name: v})
			}
			list = append(list, s)
		}
		json.NewEncoder(w).Encode(list)
	case r.Method == http.MethodDelete && strings.HasPrefix(path, "/containers/"):
		id := strings.TrimPrefix(path, "/containers/")
		force := r.URL.Query().Get("force") == "1" || r.URL.Query().Get("force") == "true"
		i := slices.IndexFunc(e.containers, func(c *Container) bool { return c.ID == id || c.Name == id })
		switch {
		case i < 0:
			refuse(w, http.StatusNotFound, "No such container: "+id)
		case e.joinerOf(e.containers[i]) != "":
			// As Podman refuses the owner of a network namespace another container joined.
			refuse(w, http.StatusInternalServerError, "container "+e.containers[i].ID+" has dependent containers which must be removed before it: "+e.joinerOf(e.containers[i])+": container already exists")
		case e.containers[i].LingeringDependent > 0:
			e.containers[i].LingeringDependent--
			refuse(w, http.StatusInternalServerError, "container "+e.containers[i].ID+" has dependent containers which must be removed before it: id-gone: container already exists")
		case e.containers[i].State == container.StateRunning && !force:
			refuse(w, http.StatusConflict, "cannot remove container \"/"+e.containers[i].Name+"\": container is running: stop the container before removing or force remove")
		default:
			e.removed = append(e.removed, "container "+e.containers[i].Name)
			e.containers = slices.Delete(e.containers, i, i+1)
			w.WriteHeader(http.StatusNoContent)
		}
	case r.Method == http.MethodGet && path == "/volumes":
		f, err := filters.FromJSON(r.URL.Query().Get("filters"))
		if err != nil {
			refuse(w, http.StatusBadRequest, err.Error())
			return
		}
		resp := volume.ListResponse{Volumes: []*volume.Volume{}, Warnings: []string{}}
		for _, v := range e.volumes {
			if labelsMatch(f, v.Labels) {
				resp.Volumes = append(resp.Volumes, &volume.Volume{Name: v.Name, Labels: v.Labels, Driver: "local"})
			}
		}
		json.NewEncoder(w).Encode(resp)
	case r.Method == http.MethodDelete && strings.HasPrefix(path, "/volumes/"):
		name := strings.TrimPrefix(path, "/volumes/")
		i := slices.IndexFunc(e.volumes, func(v *Volume) bool { return v.Name == name })
		var users []string
		for _, c := range e.containers {
			if slices.Contains(c.Volumes, name) {
				users = append(users, c.ID)
			}
		}
		switch {
		case i < 0:
			refuse(w, http.StatusNotFound, "get "+name+": no such volume")
		case len(users) > 0: // in use: refused with force too, as Docker does
			refuse(w, http.StatusConflict, "remove "+name+": volume is in use - ["+strings.Join(users, ", ")+"]")
		default:
			e.removed = append(e.removed, "volume "+name)
			e.volumes = slices.Delete(e.volumes, i, i+1)
			w.WriteHeader(http.StatusNoContent)
		}
	default:
		refuse(w, http.StatusNotImplemented, "the fake engine does not serve "+r.Method+" "+path)
	}
}

func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

// labelsMatch applies the label filters as the engine does: KEY has the label,
// KEY=VALUE has it with that value.
func labelsMatch(f filters.Args, labels map[string]string) bool {
	for _, want := range f.Get("label") {
		key, value, hasValue := strings.Cut(want, "=")
		got, ok := labels[key]
		if !ok || hasValue && got != value {
			return false
		}
	}
	return true
}

// mountsMatch applies the volume filters: the container mounts each volume named.
func mountsMatch(f filters.Args, volumes []string) bool {
	for _, want := range f.Get("volume") {
		if !slices.Contains(volumes, want) {
			return false
		}
	}
	return true
}
