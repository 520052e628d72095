package logmode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

// shortLine is the fixed short record: 127 characters and a newline.
var shortLine = func() []byte {
	line := "INFO api: request served method=GET path=/ status=200 "
	return []byte(line + strings.Repeat("-", contract.ShortLineBytes-1-len(line)) + "\n")
}()

// jsonRecord is the large synthetic record: a few fixed-width fields and one long
// ASCII payload, so that every record has exactly contract.JSONRecordBytes bytes.
type jsonRecord struct {
	Time    string `json:"ts"`
	Level   string `json:"level"`
	Message string `json:"msg"`
	Seq     string `json:"seq"`
	Payload string `json:"payload"`
}

// Fixed-width formats keep the record's length independent of time and sequence.
const (
	recordTimeLayout = "2006-01-02T15:04:05.000000000Z"
	recordSeqFormat  = "%012d"
)

// recordBuilder builds JSON records through encoding/json every time, as a logger
// that serialises a structured record would.
type recordBuilder struct {
	payload string
}

func newRecordBuilder() (*recordBuilder, error) {
	b := &recordBuilder{}
	empty, err := b.build(time.Unix(0, 0), 0)
	if err != nil {
		return nil, err
	}
	b.payload = strings.Repeat("x", contract.JSONRecordBytes-len(empty))
	if full, err := b.build(time.Unix(0, 0), 0); err != nil || len(full) != contract.JSONRecordBytes {
		return nil, fmt.Errorf("json record has %d bytes, want %d (%v)", len(full), contract.JSONRecordBytes, err)
	}
	return b, nil
}

// build returns one record, newline included.
func (b *recordBuilder) build(now time.Time, seq int64) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(contract.JSONRecordBytes)
	enc := json.NewEncoder(&buf) // Encode appends the newline
	enc.SetEscapeHTML(false)
	err := enc.Encode(jsonRecord{
		Time:    now.UTC().Format(recordTimeLayout),
		Level:   "INFO",
		Message: "request served",
		Seq:     fmt.Sprintf(recordSeqFormat, seq),
		Payload: b.payload,
	})
	return buf.Bytes(), err
}
