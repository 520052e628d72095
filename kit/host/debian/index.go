package debian

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"pault.ag/go/debian/version"
)

// stanza is one paragraph of a Debian control file: field name to value, continuation
// lines joined with "\n" (the first line of a multi-line field may be empty).
type stanza map[string]string

// parseStanzas reads the paragraphs of a control file (Release, Packages, status).
func parseStanzas(text []byte) ([]stanza, error) {
	var out []stanza
	cur := stanza{}
	last := ""
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "":
			if len(cur) > 0 {
				out = append(out, cur)
				cur, last = stanza{}, ""
			}
		case line[0] == ' ' || line[0] == '\t':
			if last == "" {
				return nil, fmt.Errorf("continuation line without a field: %q", line)
			}
			cur[last] += "\n" + strings.TrimSpace(line)
		case line[0] == '#':
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				return nil, fmt.Errorf("line without a field name: %q", line)
			}
			last = k
			cur[k] = strings.TrimSpace(v)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out, sc.Err()
}

// entry is one package of a Packages index.
type entry struct {
	Package
	depends   [][]string // Pre-Depends then Depends: groups of alternatives
	provides  []string
	priority  int    // rank of the Priority field: required first
	rawStanza []byte // the index's text of the package, for the dpkg status file
}

// index is a parsed Packages file.
type index struct {
	pkgs map[string]*entry
	// providers maps a virtual package to the real packages that provide it, by
	// priority then name.
	providers map[string][]string
}

// index downloads main/binary-<arch>/Packages.xz, checks it by the SHA-256 the signed
// Release gives, and parses it.
func (o Options) index(ctx context.Context, rel release) (*index, error) {
	path := Component + "/binary-" + o.Arch + "/Packages.xz"
	sum, ok := rel.files[path]
	if !ok {
		return nil, fmt.Errorf("%s %s: the Release lists no %s (is %s an architecture of %s?)", o.Mirror, o.Suite, path, o.Arch, o.Suite)
	}
	cached, err := o.fetch(ctx, "dists/"+o.Suite+"/"+path, sum.sha256, sum.size)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(cached)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := openXZ(io.NewSectionReader(f, 0, sum.size))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	text, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(text) > maxFileBytes {
		return nil, fmt.Errorf("%s: expands to more than %d MiB (maxFileBytes): refused", path, maxFileBytes>>20)
	}
	o.say("index %s: %.1f MB, sha256 %s verified", path, float64(sum.size)/1e6, sum.sha256[:12])
	return parseIndex(text)
}

// parseIndex reads a Packages file.
func parseIndex(text []byte) (*index, error) {
	idx := &index{pkgs: map[string]*entry{}, providers: map[string][]string{}}
	for _, raw := range bytes.Split(text, []byte("\n\n")) {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		sts, err := parseStanzas(raw)
		if err != nil {
			return nil, fmt.Errorf("Packages: %w", err)
		}
		if len(sts) == 0 {
			continue // comments only
		}
		if len(sts) != 1 {
			return nil, fmt.Errorf("Packages: a paragraph of %d stanzas", len(sts))
		}
		f := sts[0]
		size, _ := strconv.ParseInt(f["Size"], 10, 64)
		e := &entry{
			Package: Package{Name: f["Package"], Version: f["Version"], Architecture: f["Architecture"],
				SHA256: f["SHA256"], SizeBytes: size, Filename: f["Filename"]},
			priority:  priorityRank[f["Priority"]],
			rawStanza: raw,
		}
		if e.Name == "" || e.Version == "" || e.Filename == "" || e.SHA256 == "" {
			return nil, fmt.Errorf("Packages: incomplete entry %q", cut(e.Name))
		}
		if !isSHA256(e.SHA256) {
			return nil, fmt.Errorf("Packages: %s: SHA256 %q is not 64 hex digits", cut(e.Name), cut(e.SHA256))
		}
		if old, ok := idx.pkgs[e.Name]; ok {
			// A suite's index can hold an older version beside the current one (a point
			// release keeps it for a while): the highest wins, as apt picks without pins.
			newer, err := newerVersion(e.Version, old.Version)
			if err != nil {
				return nil, fmt.Errorf("Packages: %s: %w", e.Name, err)
			}
			if !newer {
				continue
			}
		}
		e.depends = append(parseDepends(f["Pre-Depends"]), parseDepends(f["Depends"])...)
		for _, p := range parseDepends(f["Provides"]) {
			e.provides = append(e.provides, p...)
		}
		idx.pkgs[e.Name] = e
	}
	// Providers by priority, then name, so that a virtual package stands for the
	// provider Debian ranks first (awk: mawk, which is required, not gawk) and the
	// choice does not depend on the index's order.
	names := sortedKeys(idx.pkgs)
	sort.SliceStable(names, func(i, j int) bool { return idx.pkgs[names[i]].priority < idx.pkgs[names[j]].priority })
	for _, name := range names {
		for _, v := range idx.pkgs[name].provides {
			if ps := idx.providers[v]; len(ps) == 0 || ps[len(ps)-1] != name {
				idx.providers[v] = append(ps, name)
			}
		}
	}
	return idx, nil
}

// priorityRank orders the Priority field; an unknown or missing one ranks last.
var priorityRank = map[string]int{"required": -5, "important": -4, "standard": -3, "optional": -2, "extra": -1}

// newerVersion reports whether Debian version a is higher than b.
func newerVersion(a, b string) (bool, error) {
	va, err := version.Parse(a)
	if err != nil {
		return false, err
	}
	vb, err := version.Parse(b)
	if err != nil {
		return false, err
	}
	return version.Compare(va, vb) > 0, nil
}

// parseDepends reads a dependency field into groups of alternatives, keeping only the
// package names: "libc6 (>= 2.34), debconf | debconf-2.0, python3:any" gives
// [[libc6] [debconf debconf-2.0] [python3]]. Version constraints are dropped (see
// resolve); architecture qualifiers (":any") name the same package here, since one
// architecture is installed; "[arch]" and "<profile>" restrictions are build-time only
// and do not occur in binary packages.
func parseDepends(field string) [][]string {
	var out [][]string
	for _, group := range strings.Split(field, ",") {
		var alts []string
		for _, alt := range strings.Split(group, "|") {
			alt = strings.TrimSpace(alt)
			if i := strings.IndexAny(alt, " ([<"); i >= 0 {
				alt = alt[:i]
			}
			alt, _, _ = strings.Cut(alt, ":")
			if alt != "" {
				alts = append(alts, alt)
			}
		}
		if len(alts) > 0 {
			out = append(out, alts)
		}
	}
	return out
}
