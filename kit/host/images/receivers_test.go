package images

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/host/bases"
)

func TestReceiverContextsOfTheRealImages(t *testing.T) {
	for _, r := range []receiver{rsyslogReceiver, syslogNGReceiver} {
		files, sum, err := receiverContext(filepath.Join("..", "..", "..", r.dir), r.config, r.baseTag)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		for _, name := range []string{"Dockerfile", r.config, "entrypoint.sh", "rundir/"} {
			if _, ok := files[name]; !ok {
				t.Errorf("%s: the context lacks %s", r.name, name)
			}
		}
		if !files["rundir/"].Dir || len(sum) != 64 {
			t.Errorf("%s: rundir %+v, source digest %q", r.name, files["rundir/"], sum)
		}
		// The configuration reads every setting of the receiver from the environment.
		config, entrypoint := string(files[r.config].Body), string(files["entrypoint.sh"].Body)
		for _, env := range []string{ReceiverPortEnv, ReceiverQueueEnv, ReceiverFIFOEnv} {
			if !strings.Contains(config, env) && !strings.Contains(entrypoint, env) {
				t.Errorf("%s: neither %s nor entrypoint.sh reads %s", r.name, r.config, env)
			}
		}
		if want := "ENV " + ReceiverFIFOEnv + "=" + ReceiverDefaultFIFO; !strings.Contains(string(files["Dockerfile"].Body), want) {
			t.Errorf("%s: the Dockerfile does not default the FIFO (%s)", r.name, want)
		}
	}
}

func TestReceiverContextRefusesAnotherBase(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("r.conf", "x")
	write("Dockerfile", "ARG BASE=logbench/other:bookworm\nFROM ${BASE}\n")
	if _, _, err := receiverContext(dir, "r.conf", bases.RsyslogTag); err == nil || !strings.Contains(err.Error(), "want FROM ${BASE}") {
		t.Errorf("another base: %v", err)
	}
	write("Dockerfile", "FROM "+bases.RsyslogTag+"\n")
	if _, _, err := receiverContext(dir, "r.conf", bases.RsyslogTag); err == nil {
		t.Error("a FROM without the BASE argument was accepted")
	}
	write("Dockerfile", "ARG BASE="+bases.RsyslogTag+"\nFROM ${BASE}\n")
	if _, _, err := receiverContext(dir, "r.conf", bases.RsyslogTag); err != nil {
		t.Error(err)
	}
	if _, _, err := receiverContext(dir, "missing.conf", bases.RsyslogTag); err == nil || !strings.Contains(err.Error(), "no missing.conf") {
		t.Errorf("a missing configuration: %v", err)
	}
}

func TestReceiversAreImagesOnBases(t *testing.T) {
	for name, want := range map[string]bases.Base{RsyslogImage: bases.Rsyslog, SyslogNGImage: bases.SyslogNG} {
		if _, ok := onBase[name]; !ok {
			t.Errorf("plans cannot name %s", name)
		}
		if base, ok := BaseOf(name); !ok || base.Repository != want.Repository {
			t.Errorf("BaseOf(%s) = %s, %v", name, base.Repository, ok)
		}
	}
	r := ReceiverBuilt{Daemon: "rsyslog", Version: "8.2302.0", DebianVersion: "8.2302.0-1+deb12u1"}
	if have, want := r.Runtime(), "rsyslog 8.2302.0 (Debian 8.2302.0-1+deb12u1)"; have != want {
		t.Errorf("Runtime() = %q, want %q", have, want)
	}
}
