package fiforeader

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
)

func TestConsumeCountsEverythingAndKeepsATimeline(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcde\n"), 1000) // 16,000 bytes
	r := New(Config{})
	if err := r.consume(context.Background(), bytes.NewReader(data), nil); !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	sum := sha256.Sum256(data)
	c := r.counts.Snapshot()
	if c.Bytes != 16000 || c.Lines != 1000 || c.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("counts = %+v", c)
	}
	// 16,000 bytes in reads of at most 4,096: four reads.
	if len(r.timeline) != 4 || r.timeline[3].Bytes != 16000 {
		t.Fatalf("timeline = %+v", r.timeline)
	}
}

func TestPacingBoundsTheRate(t *testing.T) {
	// At 256 KiB/s, 64 reads of 4 KiB may take no less than 63/64 s: each read but
	// the last is followed by a wait of its share.
	const reads = 64
	data := make([]byte, reads*contract.ReaderReadBytes)
	r := New(Config{})
	start := time.Now()
	r.consume(context.Background(), bytes.NewReader(data), Pacer(contract.SlowReaderBytesPerSec))
	elapsed := time.Since(start)
	if min := 63 * time.Second / 64; elapsed < min {
		t.Fatalf("read %d bytes in %v; the bound allows no less than %v", len(data), elapsed, min)
	}
	// The bound holds at every sample, not just at the end: counted from when the
	// pacer started, the bytes read never exceed one read plus the rate's share.
	for _, s := range r.timeline {
		allowed := contract.ReaderReadBytes + float64(contract.SlowReaderBytesPerSec)*float64(s.UnixNano-start.UnixNano())/1e9
		if float64(s.Bytes) > allowed {
			t.Fatalf("sample %+v exceeds the bound %.0f", s, allowed)
		}
	}
}

func TestNoPacerWhenUnlimited(t *testing.T) {
	if Pacer(0) != nil {
		t.Fatal("the fast reader must not be paced")
	}
}

// TestAccountingReaderAccountsEveryLineAndResetsWithTheCounts: the reader's reads cut
// lines anywhere; the account sees whole lines, a line cut by the writer's end as
// corrupted, and starts again at /reset after the lines it has seen.
func TestAccountingReaderAccountsEveryLineAndResetsWithTheCounts(t *testing.T) {
	var data []byte
	for _, seq := range []int64{0, 1, 2, 4, 3, 3} {
		data = append(data, contract.NumberedLine(seq)...)
	}
	for seq := int64(5); seq < 100; seq++ {
		if seq%10 != 0 {
			data = append(data, contract.NumberedLine(seq)...)
		}
	}
	data = append(data, contract.NumberedLine(100)[:50]...)
	r := New(Config{Account: true})
	if err := r.consume(context.Background(), bytes.NewReader(data), nil); !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	st := r.status()
	if c := st.Counts; c.Bytes != int64(len(data)) {
		t.Fatalf("counts %+v", c)
	}
	a := st.Account
	if a == nil || a.Received != 5+86 || a.Duplicated != 1 || a.Reordered != 1 || a.Corrupted != 1 || a.MaxSeq != 99 || a.MissingRanges != 9 || a.Missing[0] != (contract.SeqRange{First: 10, Last: 10}) {
		t.Fatalf("account %+v", a)
	}

	ctl := httptest.NewServer(r.controlHandler())
	defer ctl.Close()
	resp, err := http.Post(ctl.URL+contract.PathReset, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var after contract.ReaderStatus
	if err := (&control.Client{Base: ctl.URL, HTTP: ctl.Client()}).Get(context.Background(), contract.PathStatus, &after); err != nil {
		t.Fatal(err)
	}
	if after.Account == nil || after.Account.FirstSeq != 100 || after.Account.Received != 0 || after.Account.Corrupted != 0 || after.Account.MaxSeq != 99 || after.Counts.Bytes != 0 {
		t.Fatalf("after the reset: %+v, %+v", after.Account, after.Counts)
	}
}

func TestAReaderThatDoesNotAccountSaysNothingOfLines(t *testing.T) {
	r := New(Config{})
	r.consume(context.Background(), bytes.NewReader(contract.NumberedLine(0)), nil)
	body, err := json.Marshal(r.status())
	if err != nil {
		t.Fatal(err)
	}
	if r.status().Account != nil || bytes.Contains(body, []byte(`"account"`)) {
		t.Fatalf("status %s", body)
	}
}
