package linecost

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// legacyMissing is how bundles written before missing figures were empty cells spell
// one; any other spelling of a NaN is refused by the kit's reader.
const legacyMissing = "NaN"

// legacyThrottledNs is the time throttled as bundles written before named it, in ns;
// today's column is cpu_throttled_ms, fifo-stall's name and unit.
const legacyThrottledNs = "throttled_ns"

// respell gives a file of the bundle as this kit spells it: a missing figure an earlier
// kit spelled NaN (in a bundle.Opt column) as the empty field, and throttled_ns as
// cpu_throttled_ms, its values converted; body comes back as it was when nothing changes
// or it does not parse (the reader then says why).
func respell(file string, body []byte) []byte {
	row, ok := map[string]reflect.Type{RunsFile: reflect.TypeFor[RunRow](), TrialsFile: reflect.TypeFor[TrialRow](), ConditionsFile: reflect.TypeFor[ConditionRow]()}[file]
	if !ok {
		return body
	}
	header, _, _ := bytes.Cut(body, []byte("\n"))
	if !bytes.Contains(body, []byte(legacyMissing)) && !bytes.Contains(header, []byte(legacyThrottledNs)) {
		return body
	}
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(recs) == 0 {
		return body
	}
	figure := map[string]bool{}
	for _, f := range reflect.VisibleFields(row) {
		if f.Type == reflect.TypeFor[bundle.Opt]() {
			name, _, _ := strings.Cut(f.Tag.Get("csv"), ",")
			figure[name] = true
		}
	}
	throttled := -1
	for i, col := range recs[0] {
		if col == legacyThrottledNs {
			recs[0][i], throttled = "cpu_throttled_ms", i
		}
	}
	for _, rec := range recs[1:] {
		for i, s := range rec {
			switch {
			case i == throttled && s != "":
				// ns to ms as the kit computes it now, so that a figure read back is the
				// one it would write; a field that is no integer is left for the reader.
				if ns, err := strconv.ParseInt(s, 10, 64); err == nil {
					rec[i] = strconv.FormatFloat(float64(ns)/1e6, 'f', -1, 64)
				}
			case s == legacyMissing && i < len(recs[0]) && figure[recs[0][i]]:
				rec[i] = ""
			}
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	if err := w.WriteAll(recs); err != nil {
		return body
	}
	return out.Bytes()
}
