package yourapi

import (
	"cmp"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
)

// The flags that relax the kit's hardening of the service. Only the command line grants
// them: a bundle to resume, which anyone may have written, never does (Consent).
var relaxingFlags = []string{"writable-root", "keep-user", "cap-add", "new-privileges"}

// ConsentFlags are the flags --resume takes: the relaxing ones.
func (p plan) ConsentFlags() []string { return relaxingFlags }

// Consent holds a resumed bundle's hardening to the command line's: every relaxation
// the bundle recorded must be asked for again, and none it did not, or the resume is
// refused in one line naming the flags. A bundle's hardening that no command line makes
// (another user, a capability named oddly, a record that does not follow from its
// fields) is refused too. The plan then runs with the command line's hardening.
func (p plan) Consent(asked experiment.Params) error {
	ps, err := experiment.Own[*Params](asked)
	if err != nil {
		return err
	}
	// need and have are the command lines that make the recorded and the given hardening.
	given := ps.Hardening
	given.CapAdd = slices.Clone(given.CapAdd)
	var have []string
	given.Relaxed, have = given.relaxations()
	recorded := p.b.Params().Hardening
	named, need := recorded.relaxations()
	if recorded.CapDrop != "ALL" || (recorded.User != User && recorded.User != "") || !slices.Equal(recorded.Relaxed, named) ||
		slices.ContainsFunc(recorded.CapAdd, func(c string) bool { return !capName.MatchString(c) || c == "ALL" }) {
		return usagef("the bundle's hardening (user %q, cap_drop %q, cap_add %v, relaxed %v) is not one the kit's flags make: the kit does not resume it", recorded.User, recorded.CapDrop, recorded.CapAdd, recorded.Relaxed)
	}
	if slices.Equal(slices.Sorted(slices.Values(need)), slices.Sorted(slices.Values(have))) {
		p.b.Params().Hardening = given
		return nil
	}
	if slices.ContainsFunc(need, func(f string) bool { return !slices.Contains(have, f) }) {
		return usagef("the bundle ran its service with relaxed hardening (%s), which only the command line grants, never a bundle: resume it with %s if you mean to", strings.Join(recorded.Relaxed, ", "), strings.Join(need, " "))
	}
	extra := slices.DeleteFunc(slices.Clone(have), func(f string) bool { return slices.Contains(need, f) })
	return usagef("%s: the bundle ran its service without it; resume with the bundle's hardening (%s)", strings.Join(extra, " "), cmp.Or(strings.Join(need, " "), "no relaxing flag"))
}
