package procinfo

import (
	"os"
	"testing"
)

func TestReadDescribesThisProcess(t *testing.T) {
	f := Read()
	if !f.Present || f.UID != os.Getuid() || f.GID != os.Getgid() {
		t.Fatalf("facts %+v", f)
	}
	// The test runs on a writable checkout: its root is not read-only.
	if f.RootReadOnly {
		t.Fatalf("root reported read-only: %+v", f)
	}
	if os.Getuid() == 0 && f.CapEffective == 0 {
		t.Fatalf("root without capabilities: %+v", f)
	}
}
