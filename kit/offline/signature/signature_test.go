package signature

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

var sums = []byte("36e47d4fa67d3f53748540622663251c261557a2a1fb187894c893cb6bff8310  conditions.csv\n")

var subject = Subject{Name: "fifo-py", Experiment: "fifo-stall", Sums: sums}

// newKey makes an Ed25519 key pair: the private key as an OpenSSH file, the public as a
// .pub line.
func newKey(t *testing.T) (private, public []byte) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "test")
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(block), ssh.MarshalAuthorizedKey(sshPub)
}

func TestSignThenCheck(t *testing.T) {
	priv, pub := newKey(t)
	_, otherPub := newKey(t)
	sig, err := Sign(subject, priv)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(sig, []byte("-----BEGIN SSH SIGNATURE-----")) {
		t.Fatalf("not armored: %q", sig[:40])
	}
	by, err := Check(subject, sig, pub)
	if err != nil || by.Type != "ssh-ed25519" || !strings.HasPrefix(by.Fingerprint, "SHA256:") {
		t.Fatalf("%v, %v", by, err)
	}
	changed := bytes.Clone(sums)
	changed[3] ^= 1
	renamed, relabelled, edited := subject, subject, subject
	renamed.Name, relabelled.Experiment, edited.Sums = "fifo-py-faster", "qps", changed
	for _, tc := range []struct {
		name     string
		subject  Subject
		sig, pub []byte
		want     string
	}{
		{"another key", subject, sig, otherPub, "signed by another key"},
		{"a changed byte of SHA256SUMS", edited, sig, pub, "is not over this bundle"},
		{"the bundle renamed", renamed, sig, pub, `is not over this bundle (bundle "fifo-py-faster" of fifo-stall`},
		{"another experiment named", relabelled, sig, pub, "is not over this bundle"},
		{"a changed byte of the signature", subject, flipInArmor(t, sig), pub, ""},
		{"no signature", subject, []byte("hello"), pub, "not an SSH signature"},
		{"not a public key", subject, sig, []byte("ssh-ed25519 AAAA"), "not an OpenSSH public key"},
		{"a name that would forge a line", Subject{Name: "a\nexperiment: qps", Experiment: "fifo-stall", Sums: sums}, sig, pub, "control character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(tc.subject, tc.sig, tc.pub)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Sign(subject, pub); err == nil {
		t.Fatal("signed with a public key")
	}
}

// flipInArmor changes one byte of the signature blob itself (its last bytes, within the
// Ed25519 signature), re-armoring it so that it still parses.
func flipInArmor(t *testing.T, armored []byte) []byte {
	t.Helper()
	block, _ := pem.Decode(armored)
	if block == nil {
		t.Fatal("no PEM block")
	}
	block.Bytes[len(block.Bytes)-5] ^= 0x01
	return pem.EncodeToMemory(block)
}

func TestOpenSSHReadsTheKitsSignaturesAndTheKitOpenSSHs(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen")
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "id")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	priv, _ := os.ReadFile(key)
	pub, _ := os.ReadFile(key + ".pub")
	msg, err := subject.Message()
	if err != nil {
		t.Fatal(err)
	}
	// What OpenSSH is given, as the README says to make it from the bundle's name, its
	// experiment and its SHA256SUMS.
	printf, err := exec.Command("sh", "-c", `printf 'logbench bundle\nname: %s\nexperiment: %s\n\n' fifo-py fifo-stall; printf '%s' "$1"`, "sh", string(sums)).Output()
	if err != nil || !bytes.Equal(printf, msg) {
		t.Fatalf("the shell's message differs from the kit's (%v):\n%q\n%q", err, printf, msg)
	}
	sumsPath := filepath.Join(dir, "message")
	os.WriteFile(sumsPath, msg, 0o644)
	signers := filepath.Join(dir, "allowed_signers")
	os.WriteFile(signers, append([]byte("bundles@example "), pub...), 0o644)

	// The kit signs, OpenSSH checks.
	sig, err := Sign(subject, priv)
	if err != nil {
		t.Fatal(err)
	}
	sigPath := filepath.Join(dir, "b"+Suffix)
	os.WriteFile(sigPath, sig, 0o644)
	verify := func(data []byte) ([]byte, error) {
		cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", signers, "-I", "bundles@example", "-n", Namespace, "-s", sigPath)
		cmd.Stdin = bytes.NewReader(data)
		return cmd.CombinedOutput()
	}
	if out, err := verify(msg); err != nil {
		t.Fatalf("ssh-keygen -Y verify refuses the kit's signature: %v\n%s", err, out)
	}
	changed := append(bytes.Clone(msg), ' ')
	if out, err := verify(changed); err == nil {
		t.Fatalf("ssh-keygen -Y verify takes a changed SHA256SUMS:\n%s", out)
	}

	// OpenSSH signs, the kit checks.
	cmd := exec.Command("ssh-keygen", "-Y", "sign", "-f", key, "-n", Namespace, sumsPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	theirs, _ := os.ReadFile(sumsPath + ".sig")
	if _, err := Check(subject, theirs, pub); err != nil {
		t.Fatalf("the kit refuses ssh-keygen's signature: %v", err)
	}
	// Another namespace: a signature of the same key for something else.
	cmd = exec.Command("ssh-keygen", "-Y", "sign", "-f", key, "-n", "file", sumsPath)
	os.Remove(sumsPath + ".sig")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	other, _ := os.ReadFile(sumsPath + ".sig")
	if _, err := Check(subject, other, pub); err == nil || !strings.Contains(err.Error(), `a signature for "file"`) {
		t.Fatalf("err = %v", err)
	}
	// An earlier kit's signature: SHA256SUMS alone, in the namespace "logbench". It
	// names no bundle, and is refused, saying so.
	os.WriteFile(sumsPath, sums, 0o644)
	os.Remove(sumsPath + ".sig")
	cmd = exec.Command("ssh-keygen", "-Y", "sign", "-f", key, "-n", "logbench", sumsPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	legacy, _ := os.ReadFile(sumsPath + ".sig")
	if _, err := Check(subject, legacy, pub); err == nil || !strings.Contains(err.Error(), "made by an earlier kit over SHA256SUMS alone") {
		t.Fatalf("an earlier kit's signature: %v", err)
	}
}

func TestPathForIsBesideTheBundle(t *testing.T) {
	for in, want := range map[string]string{
		"results/x/qps-final.tar.gz": "results/x/qps-final.SHA256SUMS.sig",
		"b.tgz":                      "b.SHA256SUMS.sig",
		"results/x/bundle/":          "results/x/bundle.SHA256SUMS.sig",
	} {
		if got := PathFor(in); got != want {
			t.Errorf("PathFor(%q) = %q, want %q", in, got, want)
		}
	}
}
