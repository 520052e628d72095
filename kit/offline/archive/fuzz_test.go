package archive

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// FuzzRead feeds Read arbitrary bytes: it must never panic nor exceed its limits, and
// whatever it accepts must be a plain flat folder that writes and reads back the same.
func FuzzRead(f *testing.F) {
	good, _ := Bytes("bundle", sample, time.Unix(1_800_000_000, 0))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte("not an archive"))
	lim := Limits{MaxEntries: 16, MaxFileBytes: 64 << 10, MaxTotalBytes: 256 << 10}
	f.Fuzz(func(t *testing.T, data []byte) {
		folder, files, err := Read(bytes.NewReader(data), lim)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if checkName(folder) != nil {
			t.Fatalf("accepted folder %q", folder)
		}
		var total int64
		for _, file := range files {
			if checkName(file.Name) != nil {
				t.Fatalf("accepted file %q", file.Name)
			}
			total += int64(len(file.Body))
		}
		if len(files) > lim.MaxEntries || total > lim.MaxTotalBytes {
			t.Fatalf("%d files, %d bytes: over the limits", len(files), total)
		}
		again, err := Bytes(folder, files, time.Time{})
		if err != nil {
			t.Fatalf("what Read accepted does not write: %v", err)
		}
		folder2, files2, err := Read(bytes.NewReader(again), lim)
		if err != nil || folder2 != folder || len(files2) != len(files) {
			t.Fatalf("round trip: %q %d %v", folder2, len(files2), err)
		}
	})
}
