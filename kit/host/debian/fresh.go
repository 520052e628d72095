package debian

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// A validly signed Release can still be the wrong one: an old one replayed by a mirror
// that is frozen or hostile (Debian's main suites carry no Valid-Until, so nothing in
// the Release itself expires), one dated in the future to outlive every later one, or
// the Release of another suite. These checks refuse them.

// maxAhead is how far in the future a Release's Date may be: clocks disagree, not by
// more.
const maxAhead = 24 * time.Hour

// releasesDir is the folder of the cache that keeps, per suite, the Date of the newest
// Release seen: a file named for the suite holding an RFC 3339 time.
const releasesDir = "releases"

var suiteName = regexp.MustCompile(`^[a-z0-9][a-z0-9.+_-]{0,63}$`)

// checkIdentity refuses a Release that names no Codename, or whose Suite and Codename
// are both other than the suite asked for (a codename such as bookworm, or a suite
// such as stable).
func checkIdentity(rel release, asked string) error {
	switch {
	case rel.Codename == "":
		return errors.New("names no Codename: refused (a Debian Release always names one)")
	case rel.Codename == asked || rel.Suite == asked:
		return nil
	}
	return fmt.Errorf("is the Release of suite %q, codename %q, not of %q: refused", cut(rel.Suite), cut(rel.Codename), asked)
}

// checkFresh refuses a Release dated more than maxAhead after now, and, unless the
// build is from a snapshot (which pins an old date on purpose), one dated before the
// newest Release already seen for the suite; it then records this Release's Date as
// the newest seen if it is.
func (o Options) checkFresh(rel release, now time.Time) error {
	if rel.Date.After(now.Add(maxAhead)) {
		return fmt.Errorf("is dated %s, more than a day after this machine's clock (%s): refused", rel.Date.Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	if o.Snapshot != "" {
		return nil
	}
	if !suiteName.MatchString(o.Suite) {
		return fmt.Errorf("names suite %q, which is not a suite's name", cut(o.Suite))
	}
	path := filepath.Join(o.CacheDir, releasesDir, o.Suite)
	seen, err := readSeen(path)
	if err != nil {
		return err
	}
	if rel.Date.Before(seen) {
		return fmt.Errorf("is dated %s, older than the Release of %s already seen on %s (recorded in %s): a mirror that is frozen or replays an old release; --snapshot builds from an old date on purpose",
			rel.Date.Format(time.RFC3339), o.Suite, seen.Format(time.RFC3339), path)
	}
	if rel.Date.After(seen) {
		if err := writeCache(path, []byte(rel.Date.UTC().Format(time.RFC3339)+"\n")); err != nil {
			return fmt.Errorf("debian cache: %w", err)
		}
	}
	return nil
}

// readSeen reads the Date recorded at path; the zero time if none is.
func readSeen(path string) (time.Time, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("debian cache: %w", err)
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(b)))
	if err != nil {
		return time.Time{}, fmt.Errorf("debian cache: %s: not a date; delete it to start afresh", path)
	}
	return t, nil
}

// isSHA256 says whether s is a SHA-256 as the archive writes it: 64 lower-case hex
// digits. Nothing else is used as a digest, nor as a cache file's name.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// cut shows a value from a mirror on one short line.
func cut(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
