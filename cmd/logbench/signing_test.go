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
	"syscall"
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
	if err != nil || !strings.HasPrefix(out, "OK: ") || !strings.Contains(out, "\n  signature: good, by ssh-ed25519 SHA256:") {
		t.Fatalf("verify --key: %v\n%s", err, out)
	}
	// One line says what a good signature proves, and what it does not.
	if !strings.Contains(out, `of bundle "pi5" of fifo-stall and its SHA256SUMS: it proves that this key's holder signed these files under this name, not that what they record was measured honestly`) {
		t.Errorf("verify --key does not say what the signature proves:\n%s", out)
	}
	// Without --key, verify says the signature is there and was not checked.
	out, err = runApp(t, "verify", path)
	if err != nil || !strings.Contains(out, "  signature: present ("+sigPath+"), not checked: give --key") {
		t.Fatalf("verify without --key: %v\n%s", err, out)
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
		cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", signers, "-I", "me@example", "-n", "logbench-bundle", "-s", sigPath)
		cmd.Stdin = bytes.NewReader(append([]byte("logbench bundle\nname: pi5\nexperiment: fifo-stall\n\n"), fileBody(files, bundle.SumsFile)...))
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
	if err == nil || !strings.Contains(out, "the signature is not over this bundle") {
		t.Fatalf("a forged bundle: %v\n%s", err, out)
	}
	// The same files under another folder's name, packed again with the signature
	// beside them: verify alone takes them, the signature does not.
	renamed := renameArchive(t, path, "pi5-faster")
	os.Link(sigPath, strings.TrimSuffix(renamed, ".tar.gz")+".SHA256SUMS.sig")
	if out, err := runApp(t, "verify", renamed); err != nil {
		t.Fatalf("the renamed bundle does not even verify: %v\n%s", err, out)
	}
	out, err = runApp(t, "verify", "--key", pub, renamed)
	if err == nil || !strings.Contains(out, `the signature is not over this bundle (bundle "pi5-faster" of fifo-stall with its SHA256SUMS)`) {
		t.Fatalf("a renamed bundle: %v\n%s", err, out)
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

// renameArchive writes beside path an archive of the same files in a folder of
// another name.
func renameArchive(t *testing.T, path, folder string) string {
	t.Helper()
	_, files, err := archive.ReadFile(path, archive.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	body, err := archive.Bytes(folder, files, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(t.TempDir(), folder+".tar.gz")
	os.WriteFile(renamed, body, 0o644)
	return renamed
}

// An earlier kit's signature, over SHA256SUMS alone in the namespace "logbench", names
// no bundle: verify --key refuses it and says why.
func TestAnEarlierKitsSignatureIsRefusedAndSaysWhy(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen to make an earlier kit's signature")
	}
	dir := synthetic(t, "pi5", bundletestDefaults())
	priv, pub := keyFiles(t)
	if out, err := runApp(t, "archive", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sums := filepath.Join(t.TempDir(), "SHA256SUMS")
	body, _ := os.ReadFile(filepath.Join(dir, bundle.SumsFile))
	os.WriteFile(sums, body, 0o644)
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-f", priv, "-n", "logbench", sums).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	os.Rename(sums+".sig", filepath.Join(filepath.Dir(dir), "pi5.SHA256SUMS.sig"))
	out, err := runApp(t, "verify", "--key", pub, dir+".tar.gz")
	if err == nil || !strings.Contains(out, "made by an earlier kit over SHA256SUMS alone (namespace logbench), which names no bundle") {
		t.Fatalf("an earlier kit's signature: %v\n%s", err, out)
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

// A FIFO in a key's or a signature's place is refused at once, not waited on.
func TestAFIFOAsAKeyOrSignatureIsRefusedAtOnce(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	priv, pub := keyFiles(t)
	if out, err := runApp(t, "archive", dir, "--sign", priv); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if _, err := runApp(t, "verify", "--key", fifo, dir+".tar.gz"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("--key FIFO: %v", err)
	}
	sigPath := filepath.Join(filepath.Dir(dir), "pi5.SHA256SUMS.sig")
	os.Remove(sigPath)
	syscall.Mkfifo(sigPath, 0o644)
	if out, err := runApp(t, "verify", "--key", pub, dir+".tar.gz"); err == nil || !strings.Contains(out, "not a regular file") {
		t.Errorf("a FIFO as the signature: %v\n%s", err, out)
	}
	if out, err := runApp(t, "verify", dir+".tar.gz"); err != nil || !strings.Contains(out, "signature: "+sigPath+" is not a regular file, and was not read") {
		t.Errorf("a FIFO as the signature, without --key: %v\n%s", err, out)
	}
}
