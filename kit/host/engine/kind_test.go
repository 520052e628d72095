package engine

import (
	"testing"

	"github.com/docker/docker/api/types"
)

func TestKindOfTellsEnginesApartByTheirReport(t *testing.T) {
	docker := types.Version{Components: []types.ComponentVersion{{Name: "Engine", Version: "20.10.24+dfsg1"}, {Name: "containerd"}}}
	podman := types.Version{Platform: struct{ Name string }{"linux/amd64/debian-12"},
		Components: []types.ComponentVersion{{Name: "Podman Engine", Version: "4.3.1"}, {Name: "Conmon"}}}
	desktop := types.Version{Platform: struct{ Name string }{"Docker Engine - Community"}}
	for _, c := range []struct {
		v    types.Version
		want string
	}{{docker, KindDocker}, {podman, KindPodman}, {desktop, KindDocker}, {types.Version{}, ""}} {
		if got, why := KindOf(c.v); got != c.want || why == "" {
			t.Errorf("KindOf(%+v) = %q (%s), want %q", c.v, got, why, c.want)
		}
	}
}
