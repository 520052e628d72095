package engine

import (
	"strings"

	"github.com/docker/docker/api/types"
)

// The kinds of engine the kit tells apart, by what the engine reports of itself.
const (
	KindDocker = "docker"
	KindPodman = "podman"
)

// KindOf tells the engine's kind from its version report: its components' names
// (Docker Engine calls its own "Engine", Podman "Podman Engine") and its platform's
// name ("Docker Engine - Community" on Docker's packages; a Debian-built Docker leaves
// it empty). It returns "" when the report names neither, and the evidence it went by.
func KindOf(v types.Version) (kind, evidence string) {
	for _, c := range v.Components {
		switch name := strings.TrimSpace(c.Name); {
		case strings.Contains(strings.ToLower(name), "podman"):
			return KindPodman, "component " + quote(name)
		case name == "Engine":
			return KindDocker, "component " + quote(name)
		}
	}
	switch p := strings.ToLower(v.Platform.Name); {
	case strings.Contains(p, "podman"):
		return KindPodman, "platform " + quote(v.Platform.Name)
	case strings.Contains(p, "docker"):
		return KindDocker, "platform " + quote(v.Platform.Name)
	}
	return "", "neither a component nor the platform names Docker or Podman"
}

func quote(s string) string { return `"` + s + `"` }
