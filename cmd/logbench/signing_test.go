package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/logbench/logbench/kit/offline/archive"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// keyFiles writes an Ed25519 key pair as OpenSSH files: the private key and its .pub.
func keyFiles(t *testing.T) (private, public string) {
	t.Helper()
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sshPub, _ := ssh.NewPublicKey(pub)
	dir := t.TempDir()
	private, public = filepath.Join(dir, "id_ed25519"), filepath.Join(dir, "id_ed25519.pub")
	os.WriteFile(private, pem.EncodeToMemory(block), 0o600)
	os.WriteFile(public, ssh.MarshalAuthorizedKey(sshPub), 0o644)
	return private, public
}

func TestArchiveSignThenVerifyKey(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	priv, pub := keyFiles(t)
	_, otherPub := keyFiles(t)
	out, err := runApp(t, "archive", dir, "--sign", priv)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	path, sigPath := dir+".tar.gz", filepath.Join(filepath.Dir(dir), "pi5.SHA256SUMS.sig")
	if !strings.Contains(out, "signature: "+sigPath) {
		t.Fatalf("output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "pi5.SHA256SUMS.sig")); !os.IsNotExist(err) {
		t.Fatal("a signature inside the bundle folder")
	}
	out, err = runApp(t, "verify", "--key", pub, path)
	if err != nil || !strings.HasPrefix(out, "  signature: good, by ssh-ed25519 SHA256:") || !strings.Contains(out, "OK: ") {
		t.Fatalf("verify --key: %v\n%s", err, out)
	}
	// The folder's signature is the same file, beside the folder.
	if out, err := runApp(t, "verify", "--key", pub, dir); err != nil {
		t.Fatalf("verify --key of the folder: %v\n%s", err, out)
	}
	// OpenSSH alone checks it too.
	if _, err := exec.LookPath("ssh-keygen"); err == nil {
		_, files, _ := archive.ReadFile(path, archive.DefaultLimits)
		signers := filepath.Join(t.TempDir(), "allowed_signers")
		pubLine, _ := os.ReadFile(pub)
		os.WriteFile(signers, append([]byte("me@example "), pubLine...), 0o644)
		cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", signers, "-I", "me@example", "-n", "logbench", "-s", sigPath)
		cmd.Stdin = bytes.NewReader(fileBody(files, bundle.SumsFile))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, out)
		}
	}

	// A wrong key.
	out, err = runApp(t, "verify", "--key", otherPub, path)
	if err == nil || !strings.Contains(out, "signed by another key") {
		t.Fatalf("another key: %v\n%s", err, out)
	}
	// A forged bundle with SHA256SUMS written anew verifies, but not with the key.
	forged := forgeArchive(t, path)
	if out, err := runApp(t, "verify", forged); err != nil {
		t.Fatalf("the forgery does not even verify: %v\n%s", err, out)
	}
	os.Link(sigPath, strings.TrimSuffix(forged, ".tar.gz")+".SHA256SUMS.sig")
	out, err = runApp(t, "verify", "--key", pub, forged)
	if err == nil || !strings.Contains(out, "the signature does not match SHA256SUMS") {
		t.Fatalf("a forged bundle: %v\n%s", err, out)
	}
	// A changed byte of the signature.
	sig, _ := os.ReadFile(sigPath)
	block, _ := pem.Decode(sig)
	block.Bytes[len(block.Bytes)-7] ^= 1
	os.WriteFile(sigPath, pem.EncodeToMemory(block), 0o644)
	if out, err := runApp(t, "verify", "--key", pub, path); err == nil || !strings.Contains(out, "FAILED: ") {
		t.Fatalf("a changed byte of the signature: %v\n%s", err, out)
	}
	// No signature at all.
	os.Remove(sigPath)
	if out, err := runApp(t, "verify", "--key", pub, path); err == nil || !strings.Contains(out, "no signature read") {
		t.Fatalf("no signature: %v\n%s", err, out)
	}
	// A signature is never replaced, and a passphrase-less public key cannot sign.
	os.Remove(path)
	os.WriteFile(sigPath, []byte("x"), 0o644)
	if _, err := runApp(t, "archive", dir, "--sign", priv); err == nil {
		t.Fatal("an existing signature was replaced")
	}
	os.Remove(sigPath)
	if _, err := runApp(t, "archive", dir, "--sign", pub); err == nil || !strings.Contains(err.Error(), "not an OpenSSH private key") {
		t.Fatalf("signed with a public key: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("an archive was written though it could not be signed")
	}
}

func fileBody(files []archive.File, name string) []byte {
	for _, f := range files {
		if f.Name == name {
			return f.Body
		}
	}
	return nil
}

// forgeArchive writes beside path an archive of the same bundle with one request's
// latency changed and SHA256SUMS written anew: what anyone can do without the key.
func forgeArchive(t *testing.T, path string) string {
	t.Helper()
	folder, files, err := archive.ReadFile(path, archive.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var sums strings.Builder
	var names []string
	for i, f := range files {
		if f.Name == bundle.ManifestFile {
			// A host's name is an observation: verify takes it as written.
			files[i].Body = bytes.Replace(f.Body, []byte(`"host": "`), []byte(`"host": "forged-`), 1)
			if bytes.Equal(files[i].Body, f.Body) {
				t.Fatalf("no hostname in the manifest:\n%s", f.Body)
			}
		}
		if f.Name != bundle.SumsFile {
			names = append(names, f.Name)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		s := sha256.Sum256(fileBody(files, n))
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(s[:]), n)
	}
	for i, f := range files {
		if f.Name == bundle.SumsFile {
			files[i].Body = []byte(sums.String())
		}
	}
	body, err := archive.Bytes(folder, files, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(t.TempDir(), "forged.tar.gz")
	os.WriteFile(forged, body, 0o644)
	return forged
}
