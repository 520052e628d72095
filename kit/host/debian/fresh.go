package debian

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A validly signed Release can still be the wrong one: an old one replayed by a mirror
// that is frozen or hostile (Debian's main suites carry no Valid-Until, so nothing in
// the Release itself expires), one dated in the future to outlive every later one, or
// the Release of another suite. These checks refuse them.

// DefaultMaxReleaseAge is how old a Release may be (Options.MaxReleaseAge) when the
// build is not from a snapshot: a mirror that stopped syncing, or replays an old
// Release on purpose, serves packages without the fixes published since.
const DefaultMaxReleaseAge = 14 * 24 * time.Hour

// ParseAge reads an age as a command line gives it: whole days ("14d") or a Go
// duration ("336h"); it must be positive.
func ParseAge(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		days, err = strconv.Atoi(n)
		// Beyond 100 years an age means nothing, and the product would overflow.
		if err == nil && days > 36500 {
			err = errors.New("too long")
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not an age: want days (14d) or a duration (336h)", s)
	}
	return d, nil
}

// maxAhead is how far in the future a Release's Date may be: clocks disagree, not by
// more.
const maxAhead = 24 * time.Hour

// snapshotLag is how much older than the snapshot's time the Release of a snapshot
// may be: snapshot.debian.org records the archive a few times a day, so the state at
// a time holds the Release published in the hours before it. A Release older than
// that is not the archive's state at that time but one replayed from another.
const snapshotLag = 24 * time.Hour

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

// checkFresh refuses a Release whose dates do not fit the time it is read at. Always:
// one dated more than maxAhead after now. From a snapshot: one dated after the
// snapshot's time or more than snapshotLag before it, and one whose Valid-Until is
// before the snapshot's time. Otherwise: one whose Valid-Until has passed, one older
// than o.KnownRelease, one more than o.MaxReleaseAge old unless it is the known
// Release itself, and one dated before the newest Release already seen for the suite;
// it then records this Release's Date as the newest seen if it is.
func (o Options) checkFresh(rel release, now time.Time) error {
	now = now.UTC()
	if rel.Date.After(now.Add(maxAhead)) {
		return fmt.Errorf("is dated %s, more than a day after this machine's clock (%s): refused", stamp(rel.Date), stamp(now))
	}
	if o.Snapshot != "" {
		return o.checkSnapshot(rel)
	}
	if !rel.ValidUntil.IsZero() && now.After(rel.ValidUntil) {
		return fmt.Errorf("expired on %s (its Valid-Until), before this machine's clock (%s): refused", stamp(rel.ValidUntil), stamp(now))
	}
	if !o.KnownRelease.IsZero() && rel.Date.Before(o.KnownRelease) {
		return fmt.Errorf("is dated %s, older than the Release of %s the kit knows (%s): a mirror that is frozen or replays an old release; --snapshot builds from an old date on purpose",
			stamp(rel.Date), o.Suite, stamp(o.KnownRelease))
	}
	maxAge := o.MaxReleaseAge
	if maxAge <= 0 {
		maxAge = DefaultMaxReleaseAge
	}
	if age := now.Sub(rel.Date); age > maxAge && !rel.Date.Equal(o.KnownRelease) {
		return fmt.Errorf("is dated %s, %s before this machine's clock, older than the %s a Release may be: a mirror that is frozen or replays an old release; `logbench build --max-release-age` allows older ones, --snapshot builds from an old date on purpose",
			stamp(rel.Date), days(age), days(maxAge))
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
			stamp(rel.Date), o.Suite, stamp(seen), path)
	}
	if rel.Date.After(seen) {
		if err := writeCache(path, []byte(stamp(rel.Date)+"\n")); err != nil {
			return fmt.Errorf("debian cache: %w", err)
		}
	}
	return nil
}

// checkSnapshot refuses a snapshot's Release that is not the archive's state at the
// snapshot's time: dated after it, more than snapshotLag before it, or expired by then.
// Nothing is recorded as seen: a snapshot is old on purpose.
func (o Options) checkSnapshot(rel release) error {
	at := o.snapshotAt
	if rel.Date.After(at) {
		return fmt.Errorf("is dated %s, after the snapshot's time %s (--snapshot): not the archive's state at that time: refused", stamp(rel.Date), stamp(at))
	}
	if lag := at.Sub(rel.Date); lag > snapshotLag {
		// A stable suite's Release changes only at its point releases: the state of
		// the archive a day after one has the same Release and packages.
		suggest := rel.Date.Add(12 * time.Hour).Truncate(time.Hour).Format(snapshotLayout)
		return fmt.Errorf("is dated %s, %s before the snapshot's time %s, more than the day a snapshot's Release may be older: not the archive's state at that time: refused; for this Release, --snapshot %s",
			stamp(rel.Date), days(lag), stamp(at), suggest)
	}
	if !rel.ValidUntil.IsZero() && at.After(rel.ValidUntil) {
		return fmt.Errorf("expired on %s (its Valid-Until), before the snapshot's time %s (--snapshot): refused", stamp(rel.ValidUntil), stamp(at))
	}
	return nil
}

// stamp writes a time as the errors and the cache do.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// days writes a duration as people count a Release's age: "144 days", "14.2 days";
// under two days, to the second ("24h1m0s"), since the limits are a day or more.
func days(d time.Duration) string {
	const day = 24 * time.Hour
	if d < 2*day {
		return d.Round(time.Second).String()
	}
	return strings.TrimSuffix(strconv.FormatFloat(float64(d)/float64(day), 'f', 1, 64), ".0") + " days"
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
