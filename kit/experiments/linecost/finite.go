package linecost

import (
	"strconv"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// throttledNs is the time throttled as bundles written before named it, in ns; today's
// column is cpu_throttled_ms, fifo-stall's name and unit: read as ms as the kit
// computes it now, so that a figure read back is the one it would write (a field that
// is no integer is left for the reader).
var throttledNs = map[string]bundle.Renamed{"throttled_ns": {Name: "cpu_throttled_ms", Value: func(s string) string {
	if ns, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatFloat(float64(ns)/1e6, 'f', -1, 64)
	}
	return s
}}}

// respell gives a table of the bundle as this kit spells it (bundle.Respelled): a
// missing figure an earlier kit spelled NaN as the empty field, throttled_ns as
// cpu_throttled_ms.
func respell(file string, body []byte) []byte {
	for _, t := range tables {
		if t.File == file {
			return bundle.Respelled(body, t.Row, throttledNs)
		}
	}
	return body
}
