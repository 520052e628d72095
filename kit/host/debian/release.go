package debian

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// The Debian archive keys, as shipped by the debian-archive-keyring package (see
// keys/README.md for their version and fingerprints).
//
//go:embed keys/*.gpg
var archiveKeys embed.FS

// release is the part of a signed Release file the build uses.
type release struct {
	Suite      string
	Codename   string
	Date       time.Time
	ValidUntil time.Time
	// files maps a path under dists/<suite>/ to its size and SHA-256.
	files map[string]fileSum
}

type fileSum struct {
	size   int64
	sha256 string
}

// keyring reads o.Keys, or the embedded archive keys.
func (o Options) keyring() (openpgp.EntityList, error) {
	blobs := o.Keys
	if len(blobs) == 0 {
		names, err := fs.Glob(archiveKeys, "keys/*.gpg")
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			b, err := archiveKeys.ReadFile(name)
			if err != nil {
				return nil, err
			}
			blobs = append(blobs, b)
		}
	}
	var ring openpgp.EntityList
	for i, b := range blobs {
		read := openpgp.ReadKeyRing
		if bytes.HasPrefix(bytes.TrimSpace(b), []byte("-----BEGIN PGP")) {
			read = openpgp.ReadArmoredKeyRing
		}
		es, err := read(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("debian: trusted key %d: %w", i+1, err)
		}
		ring = append(ring, es...)
	}
	if len(ring) == 0 {
		return nil, errors.New("debian: no trusted keys")
	}
	return ring, nil
}

// verifyRelease checks the clear signature of an InRelease file against ring and
// returns the signed Release it holds; now is the time the signing key must be valid
// at. Only the signed text is read: anything around the signed block is ignored, as
// apt does.
func verifyRelease(inRelease []byte, ring openpgp.EntityList, now time.Time) (release, error) {
	block, _ := clearsign.Decode(inRelease)
	if block == nil {
		return release{}, errors.New("not an OpenPGP clear-signed file")
	}
	cfg := &packet.Config{Time: func() time.Time { return now }}
	if _, err := block.VerifySignature(ring, cfg); err != nil {
		return release{}, fmt.Errorf("signature does not verify against the trusted keys (the Debian archive keys unless others are given): %w", err)
	}
	// Valid-Until is checked with the other dates (checkFresh): against the clock, or
	// against the snapshot's time when the build is from one.
	return parseRelease(block.Plaintext)
}

// parseRelease reads the fields of a Release file the build needs.
func parseRelease(text []byte) (release, error) {
	st, err := parseStanzas(text)
	if err != nil || len(st) == 0 {
		return release{}, fmt.Errorf("Release: unreadable: %v", err)
	}
	f := st[0]
	rel := release{Suite: f["Suite"], Codename: f["Codename"], files: map[string]fileSum{}}
	if rel.Date, err = parseDate(f["Date"]); err != nil {
		return release{}, fmt.Errorf("Release: Date: %w", err)
	}
	if v := f["Valid-Until"]; v != "" {
		if rel.ValidUntil, err = parseDate(v); err != nil {
			return release{}, fmt.Errorf("Release: Valid-Until: %w", err)
		}
	}
	for _, line := range strings.Split(f["SHA256"], "\n") {
		fields := strings.Fields(line)
		if len(fields) != 3 {
			continue
		}
		size, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil || size < 0 {
			return release{}, fmt.Errorf("Release: SHA256 line %q: not a size", cut(line))
		}
		if !isSHA256(fields[0]) {
			return release{}, fmt.Errorf("Release: SHA256 line %q: not 64 hex digits", cut(line))
		}
		rel.files[fields[2]] = fileSum{size: size, sha256: fields[0]}
	}
	if len(rel.files) == 0 {
		return release{}, errors.New("Release: no SHA256 list")
	}
	return rel, nil
}

// parseDate reads a Release date ("Sat, 11 Jul 2026 10:16:37 UTC").
func parseDate(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC1123, time.RFC1123Z, "Mon, 2 Jan 2006 15:04:05 MST", "Mon, 2 Jan 2006 15:04:05 -0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("unreadable date %q", s)
}
