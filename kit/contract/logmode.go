package contract

import (
	"fmt"
	"slices"
	"strings"
)

// LogMode names one way the kit's APIs log a request, in the fifo-stall experiment
// (LogModes) or the log-driver one (ModeNumbered): the API's -mode takes it
// (kit/incontainer/logmode does the logging in Go, images/api-python every mode in
// Python, images/api-node none and numbered in Node.js), and the host derives from it
// the bytes and lines a run must have written.
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

// LogModes lists every mode fifo-stall publishes, in published order: the modes its
// plans iterate and its bundles may hold.
var LogModes = []LogMode{ModeNone, ModeShort1, ModeShort10, ModeJSONOnly, ModeJSONPrebuiltSync, ModeJSONSync, ModeJSONQueue}

// ModeNumbered writes one numbered line (NumberedLine) per request, synchronously: the
// log-driver experiment's mode, which the API takes and fifo-stall does not publish.
const ModeNumbered LogMode = "numbered"

// knownLogModes are the modes the API takes: the published ones and numbered.
var knownLogModes = append(slices.Clone(LogModes), ModeNumbered)

// Record sizes, newline included.
const (
	ShortLineBytes  = 128
	JSONRecordBytes = 16384
	// QueueCapacity is the bound of json-queue's queue, in records.
	QueueCapacity = 256
)

// ParseLogMode turns the name of any mode the API takes, numbered included, into a
// LogMode.
func ParseLogMode(s string) (LogMode, error) { return parseLogMode(s, knownLogModes) }

// ParsePublishedLogMode turns the name of one of LogModes into a LogMode, refusing
// numbered: what fifo-stall accepts.
func ParsePublishedLogMode(s string) (LogMode, error) { return parseLogMode(s, LogModes) }

func parseLogMode(s string, known []LogMode) (LogMode, error) {
	if i := slices.Index(known, LogMode(s)); i >= 0 {
		return known[i], nil
	}
	return "", fmt.Errorf("unknown logging mode %q (known: %s)", s, strings.Join(names(known), ", "))
}

// LogModeNames returns the names of the published modes (LogModes).
func LogModeNames() []string { return names(LogModes) }

func names(modes []LogMode) []string {
	out := make([]string, len(modes))
	for i, m := range modes {
		out[i] = string(m)
	}
	return out
}

// BytesPerRequest is how many log bytes the mode writes for one request.
func (m LogMode) BytesPerRequest() int {
	switch m {
	case ModeShort1:
		return ShortLineBytes
	case ModeNumbered:
		return NumberedLineBytes
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
	case ModeShort1, ModeNumbered, ModeJSONPrebuiltSync, ModeJSONSync, ModeJSONQueue:
		return 1
	case ModeShort10:
		return 10
	}
	return 0
}

// Queued reports whether the mode writes from a separate writer instead of the
// request path.
func (m LogMode) Queued() bool { return m == ModeJSONQueue }
