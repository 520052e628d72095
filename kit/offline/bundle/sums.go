package bundle

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
)

// ParseSums reads a SHA256SUMS file as `sha256sum` writes it.
func ParseSums(body []byte) (map[string]string, error) {
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for line := 1; sc.Scan(); line++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if _, err := hex.DecodeString(sum); !ok || err != nil || len(sum) != 64 || name == "" {
			return nil, fmt.Errorf("%s line %d: not `<sha256>  <file>`", SumsFile, line)
		}
		sums[name] = sum
	}
	return sums, sc.Err()
}
