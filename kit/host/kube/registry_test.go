package kube

import (
	"context"
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	corev1 "k8s.io/api/core/v1"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// savedImages saves images as `docker save` does, each under its tag.
type savedImages map[string]v1.Image

func (s savedImages) SaveImages(_ context.Context, refs []string, w io.Writer) error {
	m := map[name.Tag]v1.Image{}
	for _, ref := range refs {
		tag, err := name.NewTag(ref)
		if err != nil {
			return err
		}
		m[tag] = s[ref]
	}
	return tarball.MultiWrite(m, w)
}

// builtAs builds role: image, tagged logbench/role:v1, as its configuration's digest.
type builtAs map[string]v1.Image

func (b builtAs) Build(context.Context, string, []string, io.Writer) (map[string]string, []bundle.Image, error) {
	ids := map[string]string{}
	var imgs []bundle.Image
	for role, img := range b {
		id, err := img.ConfigName()
		if err != nil {
			return nil, nil, err
		}
		ids[role] = id.String()
		imgs = append(imgs, bundle.Image{Role: role, ID: id.String(), Tag: "logbench/" + role + ":v1"})
	}
	return ids, imgs, nil
}

func TestImagesArePushedAndPulledByDigest(t *testing.T) {
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	api, err := random.Image(2048, 2)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := fakeCluster(t, corev1.PodQOSGuaranteed, nil)
	reg, err := ParseRegistry(host + "/lab")
	if err != nil {
		t.Fatal(err)
	}
	reg.Saver = savedImages{"logbench/api:v1": api}
	refs, imgs, err := Images{Builder: builtAs{"api": api}, Cluster: k, Registry: reg}.Build(context.Background(), "linux/amd64", nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	digest, _ := api.Digest()
	want := host + "/lab/logbench/api@" + digest.String()
	if refs["api"] != want || len(imgs) != 1 || imgs[0].Pulled != want {
		t.Fatalf("refs %v, images %+v: want the API by digest, %s", refs, imgs, want)
	}
	// The registry serves the image the kit built: its configuration is the ID.
	ref, _ := name.NewDigest(want)
	pulled, err := remote.Image(ref)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := pulled.ConfigName(); got.String() != imgs[0].ID {
		t.Errorf("the registry serves configuration %s, the kit built %s", got, imgs[0].ID)
	}

	// A Pod pulls an image by digest when its node lacks it; the others are never pulled.
	s := spec()
	s.Containers[0].Image = want
	pod, err := PodFor(s, "n1", "ns", "")
	if err != nil {
		t.Fatal(err)
	}
	if p := pod.Spec.Containers[0].ImagePullPolicy; p != corev1.PullIfNotPresent {
		t.Errorf("the image by digest: pull policy %s", p)
	}
	if p := pod.Spec.Containers[1].ImagePullPolicy; p != corev1.PullNever {
		t.Errorf("the image by tag: pull policy %s", p)
	}

	// What the node says it ran is held to the digest pushed.
	status := func(imageID string) *corev1.Pod {
		return &corev1.Pod{Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "api", ImageID: imageID}}}}
	}
	if got := k.otherImages(s, status(want)); got != "" {
		t.Errorf("the pushed digest ran: %q", got)
	}
	other := host + "/lab/logbench/api@sha256:" + strings.Repeat("0", 64)
	if got := k.otherImages(s, status(other)); !strings.Contains(got, "the api container ran "+other+", the kit pushed "+want) {
		t.Errorf("another digest ran: %q", got)
	}
}

func TestAPushOfOtherContentIsRefused(t *testing.T) {
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	built, _ := random.Image(1024, 1)
	saved, _ := random.Image(1024, 1)
	k, _ := fakeCluster(t, corev1.PodQOSGuaranteed, nil)
	reg, _ := ParseRegistry(strings.TrimPrefix(srv.URL, "http://") + "/lab")
	reg.Saver = savedImages{"logbench/api:v1": saved}
	_, _, err := Images{Builder: builtAs{"api": built}, Cluster: k, Registry: reg}.Build(context.Background(), "linux/amd64", nil, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "the engine saved") {
		t.Errorf("%v: want the push refused", err)
	}
}

func TestParseRegistry(t *testing.T) {
	for _, s := range []string{"127.0.0.1:5000/lab", "registry.example.com/team/logbench", "localhost:5000/lab"} {
		if r, err := ParseRegistry(s); err != nil || r.String() != s {
			t.Errorf("%s: %v, %v", s, r, err)
		}
	}
	for _, s := range []string{"", "127.0.0.1:5000", "http://127.0.0.1:5000/lab", "127.0.0.1:5000/lab:v1", "127.0.0.1:5000/lab@sha256:00", "Upper/case"} {
		if _, err := ParseRegistry(s); err == nil || !strings.Contains(err.Error(), "want HOST[:PORT]/PATH") {
			t.Errorf("%q: %v, want refused", s, err)
		}
	}
}
