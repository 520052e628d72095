package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/contract"
)

// CheckVolume refuses, in one line naming the flag, a named volume (--volume) that the
// engine does not have or cannot be asked about, before any image is built: a plan that
// writes to it would fail at its first run.
func CheckVolume(env Env, flag, name string) error {
	if name == "" {
		return nil
	}
	if env.VolumeExists == nil {
		return Usagef("--%s %s: this engine cannot be asked whether the volume exists", flag, name)
	}
	ok, err := env.VolumeExists(name)
	if err != nil {
		return err
	}
	if !ok {
		return Usagef("--%s %s: no such volume on the engine (create it with docker volume create %s)", flag, name, name)
	}
	return nil
}

// ExitsText is how a pod's containers exited, as a runs table records it: role:exit code
// per container, space-separated, with :oom when the kernel killed it for memory; empty
// when none was seen to exit.
func ExitsText(xs []contract.Exit) string {
	var parts []string
	for _, x := range xs {
		s := fmt.Sprintf("%s:%d", x.Role, x.ExitCode)
		if x.OOMKilled {
			s += ":oom"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// ImagesOfChoice is an Imager's ImagesFor where --api chooses among values (an
// experiment's APIs, its languages): "" or "all" every value's images, one value its
// own, anything else refused in one line naming what is measured (what, "line-cost
// measures the languages"). of gives the images of the values chosen.
func ImagesOfChoice(api, what string, values []string, of func(chosen []string) []string) ([]string, error) {
	switch {
	case api == "" || api == "all":
		return of(values), nil
	case slices.Contains(values, api):
		return of([]string{api}), nil
	}
	return nil, Usagef("--api %q: %s %s, or all", api, what, strings.Join(values, ", "))
}
