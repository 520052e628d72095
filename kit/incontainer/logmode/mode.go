// Package logmode holds the seven logging modes of the reference experiment: what each
// builds per request, how it hands the record to the sink, and the exact bytes it
// produces.
package logmode

import (
	"fmt"
	"strings"
)

// Mode names one way of logging a request.
type Mode string

// The modes, in the order the article publishes them.
const (
	None             Mode = "none"               // no log built or written
	Short1           Mode = "short1"             // one fixed short line, written synchronously
	Short10          Mode = "short10"            // the same short line written 10 times
	JSONOnly         Mode = "json-only"          // build the JSON record, do not write it
	JSONPrebuiltSync Mode = "json-prebuilt-sync" // write a JSON record built once at start-up
	JSONSync         Mode = "json-sync"          // build the JSON record and write it synchronously
	JSONQueue        Mode = "json-queue"         // build it, hand the write to a bounded queue
)

// All lists every mode in published order.
var All = []Mode{None, Short1, Short10, JSONOnly, JSONPrebuiltSync, JSONSync, JSONQueue}

// Record sizes, newline included.
const (
	ShortLineBytes  = 128
	JSONRecordBytes = 16384
	// QueueCapacity is the bound of json-queue's queue, in records.
	QueueCapacity = 256
)

// Parse turns a mode's name into a Mode.
func Parse(s string) (Mode, error) {
	for _, m := range All {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown logging mode %q (known: %s)", s, strings.Join(Names(), ", "))
}

// Names returns the names of all modes.
func Names() []string {
	names := make([]string, len(All))
	for i, m := range All {
		names[i] = string(m)
	}
	return names
}

// BytesPerRequest is how many log bytes the mode writes for one request.
func (m Mode) BytesPerRequest() int {
	switch m {
	case Short1:
		return ShortLineBytes
	case Short10:
		return 10 * ShortLineBytes
	case JSONPrebuiltSync, JSONSync, JSONQueue:
		return JSONRecordBytes
	}
	return 0
}

// LinesPerRequest is how many log lines the mode writes for one request.
func (m Mode) LinesPerRequest() int {
	switch m {
	case Short1, JSONPrebuiltSync, JSONSync, JSONQueue:
		return 1
	case Short10:
		return 10
	}
	return 0
}

// Queued reports whether the mode writes from a separate writer instead of the
// request path.
func (m Mode) Queued() bool { return m == JSONQueue }
