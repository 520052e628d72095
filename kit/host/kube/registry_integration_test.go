package kube

import (
	"context"
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/logbench/logbench/internal/enginetest"
)

// TestTheKitsImagesGoToARegistryAsBuilt pushes the kit's own images, as the Docker
// Engine built them, to a registry on loopback (go-containerregistry's, which speaks
// the distribution API), and reads each back by the digest the push returned: the
// registry serves the image whose configuration is the engine's image ID, with every
// layer.
func TestTheKitsImagesGoToARegistryAsBuilt(t *testing.T) {
	eng := enginetest.Require(t)
	b, platform := enginetest.Builder(t, eng, io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	built, err := b.Build(ctx, platform)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	reg, err := ParseRegistry(strings.TrimPrefix(srv.URL, "http://") + "/lab")
	if err != nil {
		t.Fatal(err)
	}
	reg.Saver = eng
	for _, role := range []string{"api", "loadgen"} {
		img := built[role]
		ref, err := reg.Push(ctx, img.Tag, img.ID)
		if err != nil {
			t.Fatalf("%s: %v", role, err)
		}
		d, err := name.NewDigest(ref)
		if err != nil {
			t.Fatalf("%s: %s is no reference by digest: %v", role, ref, err)
		}
		pulled, err := remote.Image(d, remote.WithContext(ctx))
		if err != nil {
			t.Fatalf("%s: pulling %s: %v", role, ref, err)
		}
		config, _ := pulled.ConfigName()
		layers, err := pulled.Layers()
		if err != nil || config.String() != img.ID || len(layers) == 0 {
			t.Errorf("%s: the registry serves %s with %d layers (%v), the engine built %s", role, config, len(layers), err, img.ID)
		}
		for _, l := range layers {
			rc, err := l.Compressed()
			if err == nil {
				_, err = io.Copy(io.Discard, rc) // the digest is checked as it is read
				rc.Close()
			}
			if err != nil {
				t.Errorf("%s: a layer: %v", role, err)
			}
		}
	}
}
