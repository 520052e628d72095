package experiment

import "strings"

// CheckVolumeName refuses, in one line naming the flag, what cannot be a named volume's
// name (a path, a bind's host:container, a list, a flag): the engine would take some of
// them for something else than the volume meant. "" is none.
func CheckVolumeName(flag, name string) error {
	if strings.ContainsAny(name, "/:, ") || strings.HasPrefix(name, "-") {
		return Usagef("--%s %q: want the name of a named volume (docker volume ls)", flag, name)
	}
	return nil
}
