package yourapi

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// partialBundle writes the bundle of an interrupted matrix planned from args, after
// one run, and returns its folder.
func partialBundle(t *testing.T, imageID string, args ...string) string {
	t.Helper()
	p, err := Experiment.Plan(flags(t, append([]string{"--image", "theirs:1", "--port", "80", "--config", "none:LOG=none", "--config", "one:LOG=one"}, args...)...), 2)
	if err != nil {
		t.Fatal(err)
	}
	if imageID != "" {
		if err := p.Target(experiment.Env{Image: func(string) (string, bool, error) { return imageID, true, nil }}); err != nil {
			t.Fatal(err)
		}
	}
	c := p.Bundle().Common()
	c.Command, c.SchemaVersion = "reproduce", bundle.SchemaVersion
	all := experiment.Rotate(p.Conditions(), p.Rounds())
	c.RunsPlanned = len(all)
	dir := filepath.Join(t.TempDir(), "bundle")
	ctx, cancel := context.WithCancel(context.Background())
	pods := &stopping{fake: fake{perConfig: map[string]float64{"none": 0, "one": 1}, rps: 100}, cancel: cancel}
	m := &experiment.Matrix{Pods: pods, Plan: p, Images: map[string]string{LoadImage: "sha256:load"}, Dir: dir, Save: realTimes(bundle.WriteFiles), Progress: io.Discard}
	if err := m.Run(ctx, all); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
	return dir
}

// The bundle: someone else's partial your-api bundle that ran its service with
// a writable root, NET_ADMIN and NET_RAW and new privileges. Resuming it grants none
// of that unless the command line asks for exactly the same.
func TestResumeNeverRelaxesTheHardeningOnABundlesWord(t *testing.T) {
	relaxing := []string{"--writable-root", "--cap-add", "NET_ADMIN", "--cap-add", "net_raw", "--new-privileges"}
	dir := partialBundle(t, "sha256:feed", relaxing...)
	consent := func(args ...string) (plan, error) {
		t.Helper()
		p, err := Experiment.Resume(dir)
		if err != nil {
			t.Fatal(err)
		}
		return p.(plan), p.(experiment.Consenter).Consent(flags(t, args...))
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "resume it with --writable-root --cap-add NET_ADMIN --cap-add NET_RAW --new-privileges if you mean to"},
		{[]string{"--writable-root"}, "resume it with --writable-root --cap-add NET_ADMIN --cap-add NET_RAW --new-privileges"},
		{[]string{"--writable-root", "--cap-add", "NET_ADMIN", "--new-privileges"}, "relaxed hardening (writable root file system (--writable-root), capability NET_ADMIN (--cap-add), capability NET_RAW (--cap-add), new privileges (--new-privileges))"},
		{append(append([]string{}, relaxing...), "--keep-user"), "--keep-user: the bundle ran its service without it"},
	} {
		_, err := consent(tc.args...)
		var u experiment.UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line with %q", tc.args, err, tc.want)
		}
	}
	// The same flags, in another order: the service runs as the bundle's did.
	p, err := consent("--new-privileges", "--cap-add", "NET_RAW", "--cap-add", "NET_ADMIN", "--writable-root")
	if err != nil {
		t.Fatal(err)
	}
	api := p.Pod(tabular.Cell{"one", ""}, "one-r1-abc", map[string]string{LoadImage: "sha256:load"}).Containers[0]
	if r := api.Relax; r == nil || !r.WritableRoot || !r.NewPrivileges || r.ImageUser || strings.Join(r.CapAdd, ",") != "NET_RAW,NET_ADMIN" {
		t.Errorf("relax %+v", api.Relax)
	}

	// A bundle run with the kit's hardening is resumed with it, and a relaxing flag is
	// refused.
	dir = partialBundle(t, "sha256:feed")
	p, err = consent()
	if err != nil {
		t.Fatal(err)
	}
	if api := p.Pod(tabular.Cell{"one", ""}, "one-r1-abc", nil).Containers[0]; api.Relax != nil {
		t.Errorf("relaxed: %+v", api.Relax)
	}
	if _, err := consent("--cap-add", "SYS_ADMIN"); err == nil || !strings.Contains(err.Error(), "--cap-add SYS_ADMIN: the bundle ran its service without it; resume with the bundle's hardening (no relaxing flag)") {
		t.Errorf("a capability the bundle did not have: %v", err)
	}
}

// A bundle's hardening that no command line makes is not resumed: another user than
// the kit's or the image's, capabilities not dropped, a capability named oddly, or a
// record whose list of relaxations does not follow from its fields (the pod relaxes
// only what that list names).
func TestResumeRefusesAHardeningNoFlagsMake(t *testing.T) {
	for name, forge := range map[string]func(*Hardening){
		"root":                   func(h *Hardening) { h.User = "0:0" },
		"capabilities kept":      func(h *Hardening) { h.CapDrop = "" },
		"every capability":       func(h *Hardening) { h.CapAdd, h.Relaxed = []string{"ALL"}, []string{"capability ALL (--cap-add)"} },
		"a relaxation unlisted":  func(h *Hardening) { h.ReadOnlyRoot = false },
		"a listed one not taken": func(h *Hardening) { h.Relaxed = []string{"writable root file system (--writable-root)"} },
	} {
		p := plan{b: &Bundle{M: &Manifest{RoundsInParams: tabular.RoundsInParams[Params, *Params]{Parameters: Params{Hardening: Hardening{ReadOnlyRoot: true, User: User, CapDrop: "ALL", NoNewPrivileges: true}}}}}}
		forge(&p.b.Params().Hardening)
		err := p.Consent(flags(t))
		if err == nil || !strings.Contains(err.Error(), "is not one the kit's flags make") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A bundle that records no image ID is not resumed: the image of its name on this
// engine could be any image.
func TestResumeNeedsTheImageIDTheBundleRan(t *testing.T) {
	dir := partialBundle(t, "")
	if _, err := (Experiment).Resume(dir); err == nil || !strings.Contains(err.Error(), "records no image ID for theirs:1") {
		t.Fatalf("%v", err)
	}
	dir = partialBundle(t, "sha256:feed")
	p, err := Experiment.Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Target(experiment.Env{Image: func(string) (string, bool, error) { return "", false, nil }}); err == nil || !strings.Contains(err.Error(), "the engine has no such image") {
		t.Errorf("an image the engine lacks: %v", err)
	}
	if err := p.Target(experiment.Env{Image: func(string) (string, bool, error) { return "sha256:other", true, nil }}); err == nil || !strings.Contains(err.Error(), "the bundle ran sha256:feed") {
		t.Errorf("another image of that name: %v", err)
	}
}
