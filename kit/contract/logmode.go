package contract

import (
	"fmt"
	"strings"
)

// LogMode names one way the fifo-stall experiment's APIs log a request: the API's
// -mode takes it (kit/incontainer/logmode does the logging in Go, images/api-python in
// Python), and the host derives from it the bytes and lines a run must have written.
type LogMode string

// The modes, in the order the article publishes them.
const (
	ModeNone             LogMode = "none"               // no log built or written
	ModeShort1           LogMode = "short1"             // one fixed short line, written synchronously
	ModeShort10          LogMode = "short10"            // the same short line written 10 times
	ModeJSONOnly         LogMode = "json-only"          // build the JSON record, do not write it
	ModeJSONPrebuiltSync LogMode = "json-prebuilt-sync" // write a JSON record built once at start-up
	ModeJSONSync         LogMode = "json-sync"          // build the JSON record and write it synchronously
	ModeJSONQueue        LogMode = "json-queue"         // build it, hand the write to a bounded queue
)

// LogModes lists every mode in published order.
var LogModes = []LogMode{ModeNone, ModeShort1, ModeShort10, ModeJSONOnly, ModeJSONPrebuiltSync, ModeJSONSync, ModeJSONQueue}

// Record sizes, newline included.
const (
	ShortLineBytes  = 128
	JSONRecordBytes = 16384
	// QueueCapacity is the bound of json-queue's queue, in records.
	QueueCapacity = 256
)

// ParseLogMode turns a mode's name into a LogMode.
func ParseLogMode(s string) (LogMode, error) {
	for _, m := range LogModes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown logging mode %q (known: %s)", s, strings.Join(LogModeNames(), ", "))
}

// LogModeNames returns the names of all modes.
func LogModeNames() []string {
	names := make([]string, len(LogModes))
	for i, m := range LogModes {
		names[i] = string(m)
	}
	return names
}

// BytesPerRequest is how many log bytes the mode writes for one request.
func (m LogMode) BytesPerRequest() int {
	switch m {
	case ModeShort1:
		return ShortLineBytes
	case ModeShort10:
		return 10 * ShortLineBytes
	case ModeJSONPrebuiltSync, ModeJSONSync, ModeJSONQueue:
		return JSONRecordBytes
	}
	return 0
}

// LinesPerRequest is how many log lines the mode writes for one request.
func (m LogMode) LinesPerRequest() int {
	switch m {
	case ModeShort1, ModeJSONPrebuiltSync, ModeJSONSync, ModeJSONQueue:
		return 1
	case ModeShort10:
		return 10
	}
	return 0
}

// Queued reports whether the mode writes from a separate writer instead of the
// request path.
func (m LogMode) Queued() bool { return m == ModeJSONQueue }
