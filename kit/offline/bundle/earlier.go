package bundle

import (
	"bytes"
	"encoding/csv"
	"reflect"
)

// EarlierNaN is how bundles written before a missing figure was an empty field spell
// one; any other spelling of a NaN is refused by the reader (package number).
const EarlierNaN = "NaN"

// Renamed is a column an earlier kit wrote under another name, and in other units: its
// name today, and its value today from the value as written (nil: as written).
type Renamed struct {
	Name  string
	Value func(earlier string) string
}

// Respelled is a CSV file's text as this kit spells it, for a file of an earlier kit
// whose text would not read at all: a missing figure spelled NaN in a column of row
// that is an Opt as the empty field, and each column of renamed (by the name it had)
// under its name today, its values converted. body comes back as it was when nothing
// changes or it does not parse: the reader then says why. The checksums and the data
// package are held to the file as it is.
func Respelled(body []byte, row reflect.Type, renamed map[string]Renamed) []byte {
	header, _, _ := bytes.Cut(body, []byte("\n"))
	old := bytes.Contains(body, []byte(EarlierNaN))
	for name := range renamed {
		old = old || bytes.Contains(header, []byte(name))
	}
	if !old {
		return body
	}
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(recs) == 0 {
		return body
	}
	figure := map[string]bool{}
	for _, f := range FieldsOfType(row) {
		figure[f.Column] = row.FieldByIndex(f.Index).Type == reflect.TypeFor[Opt]()
	}
	convert := make([]func(string) string, len(recs[0]))
	for i, col := range recs[0] {
		if r, ok := renamed[col]; ok {
			recs[0][i], convert[i] = r.Name, r.Value
		}
	}
	for _, rec := range recs[1:] {
		for i, s := range rec {
			switch {
			case i < len(convert) && convert[i] != nil && s != "":
				rec[i] = convert[i](s)
			case s == EarlierNaN && i < len(recs[0]) && figure[recs[0][i]]:
				rec[i] = ""
			}
		}
	}
	var out bytes.Buffer
	if err := csv.NewWriter(&out).WriteAll(recs); err != nil {
		return body
	}
	return out.Bytes()
}
