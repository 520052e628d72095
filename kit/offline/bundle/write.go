package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"reflect"
	"sort"

	"github.com/gocarina/gocsv"
)

// marshalCSV writes rows with a header even when there are none. A negative zero
// (0 times a negative figure, a difference of equal figures rounded) is written as 0:
// the reader refuses "-0", whose sign other readers keep or drop (package number).
func marshalCSV(rows any) ([]byte, error) {
	positiveZeros(reflect.ValueOf(rows))
	var buf bytes.Buffer
	if err := gocsv.Marshal(rows, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// positiveZeros turns every negative zero among v's floating-point fields (in slices,
// pointers and structs, as rows are) into a positive one, which is the same number.
func positiveZeros(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			positiveZeros(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			positiveZeros(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			positiveZeros(v.Field(i))
		}
	case reflect.Float32, reflect.Float64:
		if v.CanSet() && v.Float() == 0 {
			v.SetFloat(0)
		}
	}
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
