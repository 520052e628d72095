package main

import (
	"bufio"
	"crypto/ed25519"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
	"golang.org/x/crypto/ssh"

	"github.com/logbench/logbench/kit/host/engine"
)

// needsEngine are the commands that reach an engine.
var needsEngine = []string{"reproduce", "run", "calibrate", "build", "load", "clean"}

// errDryRun stands in for an engine in TestTheREADMEExamplesRun.
var errDryRun = errors.New("dry run: no engine reached")

// readmeExamples are the logbench command lines of the README's sh blocks, as written
// (`go run ./cmd/logbench` or `logbench`, a comment after #), with their line numbers.
func readmeExamples(t *testing.T) (lines []string, examples [][]string) {
	t.Helper()
	docs, _ := filepath.Glob(filepath.Join(readmeDir, "docs", "*.md"))
	// Each experiment's page, beside its code, runs its examples too.
	pages, _ := filepath.Glob(filepath.Join(readmeDir, "kit", "experiments", "*", "README.md"))
	docs = append(docs, pages...)
	for _, path := range append([]string{filepath.Join(readmeDir, "README.md")}, docs...) {
		l, e := docExamples(t, path)
		lines, examples = append(lines, l...), append(examples, e...)
	}
	return lines, examples
}

// docExamples are readmeExamples of one document, each named by its file and line.
func docExamples(t *testing.T, path string) (lines []string, examples [][]string) {
	t.Helper()
	name, _ := filepath.Rel(readmeDir, path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		// A line ending in a backslash goes on on the next, as in a shell.
		for in && strings.HasSuffix(text, "\\") && sc.Scan() {
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(sc.Text())
			n++
		}
		switch {
		case strings.HasPrefix(text, "```"):
			in = !in && strings.TrimPrefix(text, "```") == "sh"
			continue
		case !in:
			continue
		}
		text, _, _ = strings.Cut(text, "#")
		text = strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(text, "go run ./cmd/logbench "):
			text = strings.TrimPrefix(text, "go run ./cmd/logbench ")
		case strings.HasPrefix(text, "logbench "):
			text = strings.TrimPrefix(text, "logbench ")
		default:
			continue // another tool's line (ssh-keygen, sha256sum, tar)
		}
		if strings.ContainsAny(text, `'"<>|&;$`) {
			t.Errorf("%s:%d: an example with shell syntax or a placeholder (%s): examples are run as they stand", name, n, text)
			continue
		}
		lines, examples = append(lines, fmt.Sprintf("%s:%d", name, n)), append(examples, strings.Fields(text))
	}
	return lines, examples
}

// TestTheREADMEExamplesRun: every logbench line of the README's sh blocks runs as
// written, so that the README cannot name a command, a flag or a bundle that is not
// there. The offline commands run for real on the committed bundles, in a copy of
// results/ so that nothing is written into the repository, and must succeed; the
// commands that need an engine run as far as the engine (every flag parsed and every
// plan validated) and stop there, where a stand-in refuses to reach one.
func TestTheREADMEExamplesRun(t *testing.T) {
	lines, examples := readmeExamples(t)
	if len(examples) < 8 {
		t.Fatalf("%d examples in the README's sh blocks; it has more", len(examples))
	}
	work := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../results", work).CombinedOutput(); err != nil {
		t.Fatalf("copying results/: %v\n%s", err, out)
	}
	wasDir, _ := os.Getwd()
	if err := os.Chdir(work); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wasDir) })
	// What the README's own tar and ssh-keygen lines make, made here as they would be.
	if !strings.Contains(docs(t), "tar xzf results/2026-11-30-vm2/fifo-py.tar.gz -C results/2026-11-30-vm2") ||
		!strings.Contains(docs(t), "ssh-keygen -t ed25519 -N '' -f id_ed25519") {
		t.Fatal("the README no longer makes the bundle folder and the key its examples use: change this test with it")
	}
	if out, err := exec.Command("tar", "xzf", "results/2026-11-30-vm2/fifo-py.tar.gz", "-C", "results/2026-11-30-vm2").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	writeKey(t, "id_ed25519")
	wasReach := reach
	reach = func(*cli.Context, engine.Endpoint, io.Writer) (*target, error) { return nil, errDryRun }
	t.Cleanup(func() { reach = wasReach })

	for i, args := range examples {
		out, err := runApp(t, args...)
		help := slices.Contains(args, "--help")
		switch {
		case help && err != nil:
			t.Errorf("%s: logbench %s: %v\n%s", lines[i], strings.Join(args, " "), err, out)
		case help:
		case slices.Contains(needsEngine, args[0]) && !errors.Is(err, errDryRun):
			t.Errorf("%s: logbench %s: %v, want it to reach for an engine\n%s", lines[i], strings.Join(args, " "), err, out)
		case !slices.Contains(needsEngine, args[0]) && err != nil:
			t.Errorf("%s: logbench %s: %v\n%s", lines[i], strings.Join(args, " "), err, out)
		}
	}
	// The examples wrote only where they say: into the copy.
	if _, err := os.Stat(filepath.Join(wasDir, "../../results/2026-11-30-vm2/qps-final.html")); err == nil {
		t.Error("an example wrote into the repository's results/")
	}
}

// docs is the README and every document under docs/, as one text.
func docs(t *testing.T) string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(readmeDir, "docs", "*.md"))
	var all strings.Builder
	for _, path := range append([]string{filepath.Join(readmeDir, "README.md")}, paths...) {
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(body)
	}
	return all.String()
}

// readmeDir is the repository's root, from this package's folder, set before the test
// moves into its working copy.
var readmeDir, _ = filepath.Abs("../..")

// writeKey writes an unencrypted ed25519 key pair as ssh-keygen would: path and path.pub.
func writeKey(t *testing.T, path string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".pub", ssh.MarshalAuthorizedKey(sshPub), 0o644); err != nil {
		t.Fatal(err)
	}
}
