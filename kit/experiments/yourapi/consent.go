package yourapi

import (
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
)

// The flags that relax the kit's hardening of the service. Only the command line grants
// them: a bundle to resume, which anyone may have written, never does (Consent).
var relaxingFlags = []string{"writable-root", "keep-user", "cap-add", "new-privileges"}

// flags are the command line that makes h: the relaxing flags it needs.
func (h Hardening) flags() []string {
	var out []string
	if !h.ReadOnlyRoot {
		out = append(out, "--writable-root")
	}
	if h.User == "" {
		out = append(out, "--keep-user")
	}
	for _, c := range h.CapAdd {
		out = append(out, "--cap-add "+c)
	}
	if !h.NoNewPrivileges {
		out = append(out, "--new-privileges")
	}
	return out
}

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
	given := ps.Hardening
	given.CapAdd = slices.Clone(given.CapAdd)
	given.Relaxed = given.relaxed()
	recorded := p.b.Params().Hardening
	if recorded.CapDrop != "ALL" || (recorded.User != User && recorded.User != "") || !slices.Equal(recorded.Relaxed, recorded.relaxed()) ||
		slices.ContainsFunc(recorded.CapAdd, func(c string) bool { return !capName.MatchString(c) || c == "ALL" }) {
		return usagef("the bundle's hardening (user %q, cap_drop %q, cap_add %v, relaxed %v) is not one the kit's flags make: the kit does not resume it", recorded.User, recorded.CapDrop, recorded.CapAdd, recorded.Relaxed)
	}
	need, have := recorded.flags(), given.flags()
	if slices.Equal(slices.Sorted(slices.Values(need)), slices.Sorted(slices.Values(have))) {
		p.b.Params().Hardening = given
		return nil
	}
	var missing, extra []string
	for _, f := range need {
		if !slices.Contains(have, f) {
			missing = append(missing, f)
		}
	}
	for _, f := range have {
		if !slices.Contains(need, f) {
			extra = append(extra, f)
		}
	}
	if len(missing) > 0 {
		return usagef("the bundle ran its service with relaxed hardening (%s), which only the command line grants, never a bundle: resume it with %s if you mean to", strings.Join(recorded.Relaxed, ", "), strings.Join(need, " "))
	}
	return usagef("%s: the bundle ran its service without it; resume with the bundle's hardening (%s)", strings.Join(extra, " "), orNone(need))
}

func orNone(flags []string) string {
	if len(flags) == 0 {
		return "no relaxing flag"
	}
	return strings.Join(flags, " ")
}
