package main

import (
	"strings"
	"testing"
)

// A --config's commas are its own: the command line hands each use to your-api whole,
// so that an assignment without "=" is refused by name, not taken for a configuration.
// Each refusal is one line and exit status 2, before the engine is reached.
func TestYourAPIConfigsReachTheExperimentWhole(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", "file:LOG_TARGET=file,LOG_DIR"}, `--config file: "LOG_DIR" is not an assignment ENV=VALUE`},
		{[]string{"--config", "a:X=1,Y=2", "--config", "a:Z=3"}, "--config a: the name is given twice"},
		{nil, "--config: give at least one logging configuration"},
	} {
		args := append([]string{"reproduce", "your-api", "--image", "theirs:1", "--port", "8080", "--context", "no-such-context-7f3a"}, c.args...)
		_, stderr, code := runMain(t, nil, args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}
