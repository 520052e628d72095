package debian

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAReleaseMustBeRecent builds from validly signed Releases of every age, each on an
// empty cache (nothing seen before), the way a replaying or frozen mirror would serve
// them to a new machine.
func TestAReleaseMustBeRecent(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	now := time.Now().UTC().Truncate(time.Second)
	day := 24 * time.Hour
	for _, tc := range []struct {
		name     string
		release  releaseFields
		set      func(*Options)
		want     string // "" builds
		wantAlso string
	}{
		{name: "2005", release: releaseFields{date: time.Date(2005, 6, 6, 12, 0, 0, 0, time.UTC)},
			want: "is dated 2005-06-06T12:00:00Z", wantAlso: "older than the 14 days a Release may be"},
		{name: "2023", release: releaseFields{date: time.Date(2023, 6, 10, 9, 0, 0, 0, time.UTC)},
			want: "is dated 2023-06-10T09:00:00Z", wantAlso: "`logbench build --max-release-age` allows older ones, --snapshot builds from an old date on purpose"},
		{name: "15 days", release: releaseFields{date: now.Add(-15 * day)}, want: "15 days before this machine's clock, older than the 14 days"},
		{name: "13 days", release: releaseFields{date: now.Add(-13 * day)}},
		{name: "15 days, 30 allowed", release: releaseFields{date: now.Add(-15 * day)}, set: func(o *Options) { o.MaxReleaseAge = 30 * day }},
		{name: "31 days, 30 allowed", release: releaseFields{date: now.Add(-31 * day)}, set: func(o *Options) { o.MaxReleaseAge = 30 * day },
			want: "31 days before this machine's clock, older than the 30 days"},
		// A stable suite's Release stays the same between point releases: the one the
		// caller knows is accepted at any age, an older one is not, even a fresh one.
		{name: "the known Release, two years old", release: releaseFields{date: now.AddDate(-2, 0, 0)},
			set: func(o *Options) { o.KnownRelease = now.AddDate(-2, 0, 0) }},
		{name: "before the known Release", release: releaseFields{date: now.Add(-2 * time.Hour)},
			set:  func(o *Options) { o.KnownRelease = now.Add(-time.Hour) },
			want: "older than the Release of bookworm the kit knows (" + now.Add(-time.Hour).Format(time.RFC3339) + ")"},
		{name: "after the known Release, but old", release: releaseFields{date: now.Add(-20 * day)},
			set: func(o *Options) { o.KnownRelease = now.Add(-30 * day) }, want: "older than the 14 days"},
		{name: "Valid-Until passed", release: releaseFields{date: now.Add(-2 * day), validUntil: now.Add(-day)},
			want: "expired on " + now.Add(-day).Format(time.RFC3339) + " (its Valid-Until), before this machine's clock"},
		{name: "Valid-Until to come", release: releaseFields{date: now.Add(-2 * day), validUntil: now.Add(5 * day)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.release.codename = "bookworm"
			a.signReleaseFields(tc.release)
			o := a.options("")
			if tc.set != nil {
				tc.set(&o)
			}
			_, _, err := build(t, o)
			checkErr(t, err, tc.want, tc.wantAlso)
			if tc.want != "" {
				if _, err := os.Stat(filepath.Join(o.CacheDir, "releases", "bookworm")); err == nil {
					t.Error("a refused Release was recorded as seen")
				}
			}
		})
	}
	// Served unchanged for two years: the cache has seen it all along, it is still
	// refused.
	cache := t.TempDir()
	old := now.AddDate(-2, 0, 0)
	if err := writeCache(filepath.Join(cache, "releases", "bookworm"), []byte(old.Format(time.RFC3339)+"\n")); err != nil {
		t.Fatal(err)
	}
	a.signReleaseFields(releaseFields{codename: "bookworm", date: old})
	_, _, err := build(t, a.options(cache))
	checkErr(t, err, "is dated "+old.Format(time.RFC3339), "older than the 14 days")
}

// TestASnapshotsReleaseMustBeItsState builds from --snapshot 20240615T000000Z with
// Releases of other dates: only one published in the day before that time is the
// archive's state then.
func TestASnapshotsReleaseMustBeItsState(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	a.useSnapshots()
	at := time.Date(2024, 6, 15, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		release  releaseFields
		snapshot string
		want     string
		wantAlso string
	}{
		{name: "2019", release: releaseFields{date: time.Date(2019, 7, 6, 8, 0, 0, 0, time.UTC)},
			want: "is dated 2019-07-06T08:00:00Z, 1805.7 days before the snapshot's time 2024-06-15T00:00:00Z", wantAlso: "for this Release, --snapshot 20190706T200000Z"},
		{name: "a month before: a stable suite's Release between point releases", release: releaseFields{date: at.AddDate(0, -1, 0)},
			want: "31 days before the snapshot's time", wantAlso: "more than the day a snapshot's Release may be older"},
		{name: "a day and a minute before", release: releaseFields{date: at.Add(-24*time.Hour - time.Minute)}, want: "24h1m0s before the snapshot's time"},
		{name: "an hour after", release: releaseFields{date: at.Add(time.Hour)},
			want: "is dated 2024-06-15T01:00:00Z, after the snapshot's time 2024-06-15T00:00:00Z (--snapshot)"},
		{name: "a day before", release: releaseFields{date: at.Add(-24 * time.Hour)}},
		{name: "six hours before", release: releaseFields{date: at.Add(-6 * time.Hour)}},
		{name: "the date's midnight", release: releaseFields{date: at.Add(-time.Hour)}, snapshot: "2024-06-15"},
		// Valid-Until counts at the snapshot's time, not now: a snapshot is old on
		// purpose.
		{name: "valid then, expired now", release: releaseFields{date: at.Add(-time.Hour), validUntil: at.AddDate(0, 0, 7)}},
		{name: "expired then", release: releaseFields{date: at.Add(-time.Hour), validUntil: at.Add(-time.Minute)},
			want: "expired on 2024-06-14T23:59:00Z (its Valid-Until), before the snapshot's time 2024-06-15T00:00:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.release.codename = "bookworm"
			a.signReleaseFields(tc.release)
			o := a.options("")
			o.Mirror, o.Snapshot = "", "20240615T000000Z"
			if tc.snapshot != "" {
				o.Snapshot = tc.snapshot
			}
			_, _, err := build(t, o)
			checkErr(t, err, tc.want, tc.wantAlso)
			if _, err := os.Stat(filepath.Join(o.CacheDir, "releases", "bookworm")); err == nil {
				t.Error("a snapshot's Release was recorded as seen")
			}
		})
	}
}

// checkErr wants err nil when want is "", else one line about InRelease holding want
// and wantAlso.
func checkErr(t *testing.T, err error, want, wantAlso string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), wantAlso) ||
		!strings.Contains(err.Error(), "InRelease") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v\nwant one line with %q and %q", err, want, wantAlso)
	}
	t.Log(err)
}

func TestDays(t *testing.T) {
	for d, want := range map[time.Duration]string{
		20 * time.Hour: "20h0m0s", 24*time.Hour + time.Minute: "24h1m0s", 48 * time.Hour: "2 days",
		14 * 24 * time.Hour: "14 days", 14*24*time.Hour + 5*time.Hour: "14.2 days",
	} {
		if have := days(d); have != want {
			t.Errorf("days(%s) = %q, want %q", d, have, want)
		}
	}
}

func TestParseAge(t *testing.T) {
	day := 24 * time.Hour
	for in, want := range map[string]time.Duration{"14d": 14 * day, "1d": day, "336h": 14 * day, "90m": 90 * time.Minute} {
		if have, err := ParseAge(in); err != nil || have != want {
			t.Errorf("ParseAge(%q) = %s, %v; want %s", in, have, err, want)
		}
	}
	for _, in := range []string{"", "d", "0d", "-3d", "0", "14", "two weeks", "1.5d", "99999999999d"} {
		if have, err := ParseAge(in); err == nil {
			t.Errorf("ParseAge(%q) = %s, want an error", in, have)
		}
	}
}
