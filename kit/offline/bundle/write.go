package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"

	"github.com/gocarina/gocsv"
)

// marshalCSV writes rows with a header even when there are none.
func marshalCSV(rows any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gocsv.Marshal(rows, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sums lists files in the format `sha256sum -c` reads, sorted by name.
func sums(files map[string][]byte) []byte {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&buf, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	return buf.Bytes()
}

func writeAtomic(path string, body []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, body, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
