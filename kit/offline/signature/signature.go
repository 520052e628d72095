// Package signature signs a bundle and checks the signature, in OpenSSH's own format
// (the one `ssh-keygen -Y sign` writes and `ssh-keygen -Y verify` reads), so that anyone
// can check a bundle with OpenSSH alone.
//
// SHA256SUMS ties every file of a bundle to its digest; it proves integrity, not origin,
// since whoever edits a file can write SHA256SUMS anew. A signature by a key the reader
// already trusts proves who vouches for the bundle. What is signed is the bundle's
// identity with its contents (Subject): its name (its folder's, inside an archive), the
// experiment its manifest names, and its SHA256SUMS, so that a bundle renamed or
// relabelled and packed again is no longer the one signed. What a signature cannot
// prove is that what the files record was measured honestly: only that the key's
// holder signed exactly these files under this name.
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

// Namespace is the signatures' domain (`ssh-keygen -Y sign -n logbench-bundle`): a
// signature made for another purpose with the same key does not verify as a bundle's.
const Namespace = "logbench-bundle"

// legacyNamespace is that of earlier kits' signatures, made over SHA256SUMS alone: they
// name no bundle, so a renamed copy kept its signature. They are refused, and said so.
const legacyNamespace = "logbench"

// Subject is what a signature covers: a bundle's identity and its contents.
type Subject struct {
	// Name is the bundle's: its folder's, inside an archive.
	Name string
	// Experiment is the experiment its manifest names.
	Experiment string
	// Sums is its SHA256SUMS, which ties every other file to its digest.
	Sums []byte
}

// Message is the text signed: three lines naming the bundle, a blank line, then its
// SHA256SUMS as they are. With OpenSSH:
//
//	{ printf 'logbench bundle\nname: %s\nexperiment: %s\n\n' NAME EXPERIMENT; cat SHA256SUMS; } |
//	  ssh-keygen -Y verify -n logbench-bundle ...
//
// A name or an experiment with a control character in it cannot be told apart from the
// lines around it, and is refused.
func (s Subject) Message() ([]byte, error) {
	for _, f := range [][2]string{{"name", s.Name}, {"experiment", s.Experiment}} {
		what, v := f[0], f[1]
		if v == "" || strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			return nil, fmt.Errorf("the bundle's %s %q cannot be signed: empty, or a control character in it", what, v)
		}
	}
	if len(s.Sums) == 0 {
		return nil, errors.New("the bundle has no SHA256SUMS to sign")
	}
	head := fmt.Sprintf("logbench bundle\nname: %s\nexperiment: %s\n\n", s.Name, s.Experiment)
	return append([]byte(head), s.Sums...), nil
}

func (s Subject) String() string { return fmt.Sprintf("bundle %q of %s", s.Name, s.Experiment) }

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

// Sign signs the bundle subject with the OpenSSH private key in privateKey and returns
// the armored signature ("-----BEGIN SSH SIGNATURE-----"). A key with a passphrase is
// refused: decrypt a copy, or sign with ssh-keygen -Y sign.
func Sign(subject Subject, privateKey []byte) ([]byte, error) {
	msg, err := subject.Message()
	if err != nil {
		return nil, err
	}
	if len(privateKey) > maxKeyBytes {
		return nil, errors.New("the key file is too big to be a private key")
	}
	signer, err := ssh.ParsePrivateKey(privateKey)
	if err != nil {
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, errors.New("the private key has a passphrase, which this command does not ask for: sign with `ssh-keygen -Y sign -n " + Namespace + "` instead")
		}
		return nil, fmt.Errorf("not an OpenSSH private key: %w", err)
	}
	sig, err := sshsig.SignWithRand(bytes.NewReader(msg), rand.Reader, signer, sshsig.HashSHA512, Namespace)
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

// Check checks the armored signature sig of the bundle subject against publicKey (one
// line of an authorized_keys or .pub file). It fails unless the signature is a good
// one in this namespace by exactly that key over exactly this bundle: its name, its
// experiment and its SHA256SUMS.
func Check(subject Subject, sig, publicKey []byte) (Signer, error) {
	msg, err := subject.Message()
	if err != nil {
		return Signer{}, err
	}
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
	if err := sshsig.Verify(bytes.NewReader(msg), s, pub, s.HashAlgorithm, Namespace); err != nil {
		switch {
		case errors.Is(err, sshsig.ErrNamespaceMismatch) && s.Namespace == legacyNamespace:
			return Signer{}, errors.New("made by an earlier kit over SHA256SUMS alone (namespace " + legacyNamespace + "), which names no bundle: a renamed copy would keep it, so it proves nothing here; sign the bundle again with archive --sign")
		case errors.Is(err, sshsig.ErrPublicKeyMismatch):
			return Signer{}, fmt.Errorf("signed by another key (%s %s), not %s %s", s.PublicKey.Type(), ssh.FingerprintSHA256(s.PublicKey), pub.Type(), ssh.FingerprintSHA256(pub))
		case errors.Is(err, sshsig.ErrNamespaceMismatch):
			ns := s.Namespace
			if len(ns) > 40 {
				ns = ns[:40] + "…"
			}
			return Signer{}, fmt.Errorf("a signature for %q, not for %q", ns, Namespace)
		}
		return Signer{}, fmt.Errorf("the signature is not over this bundle (%s with its SHA256SUMS): it was renamed, relabelled or changed since it was signed: %w", subject, err)
	}
	return Signer{Type: pub.Type(), Fingerprint: ssh.FingerprintSHA256(pub)}, nil
}
