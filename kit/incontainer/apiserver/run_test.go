package apiserver

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
)

// lockedBuffer is standard output as the test reads it while the server writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// freeAddr is a loopback address nothing listens on just now.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestTheLogToStandardOutputNeedsNoReader: with -fifo=-, the API opens its request
// path without a FIFO or a reader, writes its numbered lines to standard output, and
// counts them as it counts a FIFO's.
func TestTheLogToStandardOutputNeedsNoReader(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // a FIFO named "-" would be made here
	var stdout lockedBuffer
	s, err := New(Config{Mode: contract.ModeNumbered, FIFOPath: contract.LogToStdout, Stdout: &stdout,
		Workload: freeAddr(t), Control: freeAddr(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	ctl := &control.Client{Base: "http://" + s.cfg.Control, HTTP: &http.Client{Timeout: 5 * time.Second}}
	var st contract.APIStatus
	for deadline := time.Now().Add(5 * time.Second); !st.Ready; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the API never said ready")
		}
		ctl.Get(ctx, contract.PathStatus, &st)
	}
	const requests = 3
	var want []byte
	for i := range requests {
		req, _ := http.NewRequest(http.MethodGet, "http://"+s.cfg.Workload+"/", nil)
		req.Header.Set(contract.SeqHeader, strconv.Itoa(i-1))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %s", i, resp.Status)
		}
		want = append(want, contract.NumberedLine(int64(i))...)
	}
	if have := stdout.Bytes(); !bytes.Equal(have, want) {
		t.Fatalf("standard output\n%s\nwant\n%s", have, want)
	}
	if err := ctl.Get(ctx, contract.PathStatus, &st); err != nil {
		t.Fatal(err)
	}
	if c := st.Counters; c.Written != c.Generated || c.Written.Lines != requests || c.Written.Bytes != requests*contract.NumberedLineBytes || st.Mode != "numbered" {
		t.Fatalf("status %+v", st)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the API made %v", entries)
	}
}
