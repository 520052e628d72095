package experiment_test

import (
	"testing"

	"github.com/logbench/logbench/kit/experiment"
)

// A named volume's name passes; a path, a bind, a list or a flag does not.
func TestCheckVolumeName(t *testing.T) {
	for name, ok := range map[string]bool{"": true, "logs": true, "my_logs-2.d": true,
		"/var/log": false, "a:/b": false, "a,b": false, "a b": false, "-v": false} {
		if err := experiment.CheckVolumeName("volume", name); (err == nil) != ok {
			t.Errorf("CheckVolumeName(%q) = %v, want ok %v", name, err, ok)
		}
	}
	if err := experiment.CheckVolumeName("volume", "/x"); err == nil || err.Error() != `--volume "/x": want the name of a named volume (docker volume ls)` {
		t.Errorf("the message: %v", err)
	}
}
