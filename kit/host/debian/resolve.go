package debian

import (
	"fmt"
	"sort"
	"strings"
)

// resolve returns roots and everything they depend on (Pre-Depends and Depends, not
// Recommends), sorted by name. In a group of alternatives the first one that is
// already chosen or provided wins, else the first one the index has, a virtual package
// standing for its first provider. Packages in omit satisfy a dependency without being
// installed.
//
// Version constraints are not checked: the index keeps one version of each package
// (the highest, see parseIndex), so a constraint can only be met by that version; an
// unmet one would be an inconsistency of the archive itself, which apt would refuse
// and this builder does not detect.
//
// Essential packages are not added on their own, although dpkg treats them as always
// installed: an image gets one only if something it installs depends on it. Packages
// that rely on an Essential package without saying so do it in maintainer scripts,
// which are not run here.
func resolve(idx *index, roots []string, omit map[string]string) ([]*entry, error) {
	chosen := map[string]*entry{}
	provided := map[string]bool{} // virtual names provided by chosen packages
	var queue []*entry
	choose := func(e *entry) {
		if _, ok := chosen[e.Name]; ok {
			return
		}
		chosen[e.Name] = e
		for _, v := range e.provides {
			provided[v] = true
		}
		queue = append(queue, e)
	}
	for _, name := range roots {
		e, ok := idx.pkgs[name]
		if !ok {
			return nil, fmt.Errorf("no package %s", name)
		}
		if _, ok := omit[name]; ok {
			return nil, fmt.Errorf("package %s is both wanted and omitted", name)
		}
		choose(e)
	}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
	groups:
		for _, alts := range e.depends {
			for _, a := range alts {
				if _, ok := omit[a]; ok || chosen[a] != nil || provided[a] {
					continue groups
				}
			}
			for _, a := range alts {
				if d, ok := idx.pkgs[a]; ok {
					choose(d)
					continue groups
				}
				if ps := idx.providers[a]; len(ps) > 0 {
					choose(idx.pkgs[ps[0]])
					continue groups
				}
			}
			return nil, fmt.Errorf("%s depends on %s, which the index does not have", e.Name, strings.Join(alts, " | "))
		}
	}
	out := make([]*entry, 0, len(chosen))
	for _, e := range chosen {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
