// Package signature signs a bundle's SHA256SUMS and checks the signature, in OpenSSH's
// own format (the one `ssh-keygen -Y sign` writes and `ssh-keygen -Y verify` reads), so
// that anyone can check a bundle with OpenSSH alone.
//
// SHA256SUMS ties every file of a bundle to its digest; it proves integrity, not origin,
// since whoever edits a file can write SHA256SUMS anew. A signature over SHA256SUMS by a
// key the reader already trusts proves the files are the ones its holder archived.
//
// The signature is a detached file beside the archive, never inside a bundle: the
// bundle's files stay exactly those its SHA256SUMS lists.
package signature

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// Namespace is the signatures' domain (`ssh-keygen -Y sign -n logbench`): a signature
// made for another purpose with the same key does not verify as a bundle's.
const Namespace = "logbench"

// Suffix names a bundle's signature file: NAME.SHA256SUMS.sig beside NAME.tar.gz.
const Suffix = ".SHA256SUMS.sig"

// maxKeyBytes bounds a key or signature file read: any real one is a few KiB.
const maxKeyBytes = 64 << 10

// PathFor is the signature file of the bundle at path (an archive or a folder): beside
// it, never inside.
func PathFor(bundlePath string) string {
	p := strings.TrimRight(bundlePath, "/")
	for _, ext := range []string{".tar.gz", ".tgz"} {
		if strings.HasSuffix(p, ext) {
			p = strings.TrimSuffix(p, ext)
			break
		}
	}
	return p + Suffix
}

// Sign signs sums (a bundle's SHA256SUMS) with the OpenSSH private key in privateKey
// and returns the armored signature ("-----BEGIN SSH SIGNATURE-----"). A key with a
// passphrase is refused: decrypt a copy, or sign with ssh-keygen -Y sign.
func Sign(sums, privateKey []byte) ([]byte, error) {
	if len(privateKey) > maxKeyBytes {
		return nil, errors.New("the key file is too big to be a private key")
	}
	signer, err := ssh.ParsePrivateKey(privateKey)
	if err != nil {
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, errors.New("the private key has a passphrase, which this command does not ask for: sign with `ssh-keygen -Y sign -n logbench` instead")
		}
		return nil, fmt.Errorf("not an OpenSSH private key: %w", err)
	}
	sig, err := sshsig.SignWithRand(bytes.NewReader(sums), rand.Reader, signer, sshsig.HashSHA512, Namespace)
	if err != nil {
		return nil, err
	}
	return sshsig.Armor(sig), nil
}

// Signer is whom a good signature is by: the key's type and SHA-256 fingerprint, as
// ssh-keygen -l shows them.
type Signer struct {
	Type        string
	Fingerprint string
}

func (s Signer) String() string { return s.Type + " " + s.Fingerprint }

// Check checks the armored signature sig over sums against publicKey (one line of an
// authorized_keys or .pub file). It fails unless the signature is a good one in this
// namespace by exactly that key.
func Check(sums, sig, publicKey []byte) (Signer, error) {
	if len(publicKey) > maxKeyBytes || len(sig) > maxKeyBytes {
		return Signer{}, errors.New("the key or signature file is too big to be one")
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey(publicKey)
	if err != nil {
		return Signer{}, fmt.Errorf("not an OpenSSH public key (a .pub file): %w", err)
	}
	s, err := sshsig.Unarmor(sig)
	if err != nil {
		return Signer{}, fmt.Errorf("not an SSH signature: %w", err)
	}
	if err := s.HashAlgorithm.Supported(); err != nil {
		return Signer{}, fmt.Errorf("the signature's hash: %w", err)
	}
	if err := sshsig.Verify(bytes.NewReader(sums), s, pub, s.HashAlgorithm, Namespace); err != nil {
		switch {
		case errors.Is(err, sshsig.ErrPublicKeyMismatch):
			return Signer{}, fmt.Errorf("signed by another key (%s %s), not %s %s", s.PublicKey.Type(), ssh.FingerprintSHA256(s.PublicKey), pub.Type(), ssh.FingerprintSHA256(pub))
		case errors.Is(err, sshsig.ErrNamespaceMismatch):
			ns := s.Namespace
			if len(ns) > 40 {
				ns = ns[:40] + "…"
			}
			return Signer{}, fmt.Errorf("a signature for %q, not for %q", ns, Namespace)
		}
		return Signer{}, fmt.Errorf("the signature does not match SHA256SUMS: %w", err)
	}
	return Signer{Type: pub.Type(), Fingerprint: ssh.FingerprintSHA256(pub)}, nil
}
