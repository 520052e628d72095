package engine

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// testdata/dockerconfig is a docker CLI configuration folder as `docker context create`
// and `docker context use pi5` leave it: config.json names the current context, and
// contexts/meta/<sha256 of the name>/meta.json holds each context's endpoint.
const fixture = "testdata/dockerconfig"

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestChoiceFollowsTheDockerCLIsOrder(t *testing.T) {
	empty := t.TempDir() // a home without .docker: no config, no contexts
	tests := []struct {
		name   string
		choice Choice
		want   Endpoint
	}{
		{"--context wins over everything",
			Choice{Context: "other", Getenv: env(map[string]string{"DOCKER_HOST": "tcp://10.0.0.1:2375", "DOCKER_CONTEXT": "pi5", "DOCKER_CONFIG": fixture})},
			Endpoint{Context: "other", Host: "unix:///run/logbench-other/docker.sock", ChosenBy: "--context"}},
		{"--context default is DOCKER_HOST",
			Choice{Context: "default", Getenv: env(map[string]string{"DOCKER_HOST": "tcp://10.0.0.1:2375", "DOCKER_CONFIG": fixture})},
			Endpoint{Context: "default", Host: "tcp://10.0.0.1:2375", ChosenBy: "--context"}},
		{"DOCKER_HOST before DOCKER_CONTEXT",
			Choice{Getenv: env(map[string]string{"DOCKER_HOST": "unix:///tmp/x.sock", "DOCKER_CONTEXT": "pi5", "DOCKER_CONFIG": fixture})},
			Endpoint{Context: "default", Host: "unix:///tmp/x.sock", ChosenBy: "DOCKER_HOST"}},
		{"DOCKER_CONTEXT before the config's current context",
			Choice{Getenv: env(map[string]string{"DOCKER_CONTEXT": "other", "DOCKER_CONFIG": fixture})},
			Endpoint{Context: "other", Host: "unix:///run/logbench-other/docker.sock", ChosenBy: "DOCKER_CONTEXT"}},
		{"the config's current context, DOCKER_CONFIG honoured",
			Choice{Getenv: env(map[string]string{"DOCKER_CONFIG": fixture})},
			Endpoint{Context: "pi5", Host: "ssh://pi@pi5.local", ChosenBy: "currentContext in " + filepath.Join(fixture, "config.json")}},
		{"the config under the home folder without DOCKER_CONFIG",
			Choice{Home: homeWith(t, fixture)},
			Endpoint{Context: "pi5", Host: "ssh://pi@pi5.local"}},
		{"the default socket when nothing is set",
			Choice{Home: empty},
			Endpoint{Context: "default", Host: "unix:///var/run/docker.sock", ChosenBy: "the default socket"}},
		{"a DOCKER_HOST without a scheme is TCP, as in the docker CLI",
			Choice{Getenv: env(map[string]string{"DOCKER_HOST": "10.0.0.2:2375"}), Home: empty},
			Endpoint{Context: "default", Host: "tcp://10.0.0.2:2375", ChosenBy: "DOCKER_HOST"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			have, err := tt.choice.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			opts := []cmp.Option{cmpopts.IgnoreUnexported(Endpoint{})}
			if tt.want.ChosenBy == "" {
				opts = append(opts, cmpopts.IgnoreFields(Endpoint{}, "ChosenBy"))
			}
			if d := cmp.Diff(tt.want, have, opts...); d != "" {
				t.Errorf("(-want +have)\n%s", d)
			}
		})
	}
}

// homeWith is a home folder whose .docker is a copy of dir.
func homeWith(t *testing.T, dir string) string {
	home := t.TempDir()
	if err := os.CopyFS(filepath.Join(home, ".docker"), os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return home
}

func TestAnUnknownContextIsNamed(t *testing.T) {
	for _, c := range []Choice{
		{Context: "nope", Getenv: env(map[string]string{"DOCKER_CONFIG": fixture})},
		{Getenv: env(map[string]string{"DOCKER_CONTEXT": "nope", "DOCKER_CONFIG": fixture})},
	} {
		_, err := c.Resolve()
		var unknown *UnknownContextError
		if !errors.As(err, &unknown) || unknown.Name != "nope" {
			t.Fatalf("have %v, want an UnknownContextError naming nope", err)
		}
	}
}

func TestNamedTakesAContextOrAnAddress(t *testing.T) {
	c := Choice{Getenv: env(map[string]string{"DOCKER_CONFIG": fixture})}
	for in, want := range map[string]string{
		"other":                    "unix:///run/logbench-other/docker.sock",
		"pi5":                      "ssh://pi@pi5.local",
		"unix:///tmp/second.sock":  "unix:///tmp/second.sock",
		"tcp://192.0.2.7:2375":     "tcp://192.0.2.7:2375",
		"default":                  "unix:///var/run/docker.sock",
		"ssh://builder@arm64.host": "ssh://builder@arm64.host",
	} {
		have, err := c.Named(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if have.Host != want || have.ChosenBy != "--engine" {
			t.Errorf("%s: have %s by %s, want %s by --engine", in, have.Host, have.ChosenBy, want)
		}
	}
	if _, err := c.Named("nope"); err == nil {
		t.Error("an unknown context was accepted")
	}
	if _, err := c.Named("gopher://x"); err == nil {
		t.Error("an address of no engine protocol was accepted")
	}
}
