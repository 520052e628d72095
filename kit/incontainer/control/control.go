// Package control is the small HTTP protocol by which the conductor drives the API and
// the reader during a run: readiness, counter snapshots, reset after warm-up, and the
// final report. It is served on its own loopback port, apart from the workload, so that
// a stalled request path cannot hide the counters. Any API implementation that serves
// these JSON documents can be measured by the same conductor.
package control

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/logbench/logbench/kit/incontainer/cgroupstat"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/incontainer/procinfo"
	"github.com/logbench/logbench/kit/incontainer/tally"
)

// Loopback ports inside a run's network namespace.
const (
	WorkloadPort   = 8080 // the API's request path
	APIControlPort = 9001
	ReaderPort     = 9002
)

// Paths served on a control port.
const (
	PathStatus = "/status" // GET: counters and cgroup, cheap enough to poll
	PathReset  = "/reset"  // POST: start all counts again
	PathReport = "/report" // GET: everything, once at the end of a run
)

// SeqHeader carries the load generator's request number, so that the API's spans can
// be joined to the client's observations.
const SeqHeader = "X-Logbench-Seq"

// APIStatus is the API's answer to PathStatus.
type APIStatus struct {
	Implementation string              `json:"implementation"` // "go", "python"
	Runtime        string              `json:"runtime"`        // e.g. "go1.26.8", "Python 3.11.2"
	Mode           logmode.Mode        `json:"mode"`
	Ready          bool                `json:"ready"` // the request path is open
	Counters       logmode.Counters    `json:"counters"`
	Cgroup         cgroupstat.Snapshot `json:"cgroup"`
	Process        procinfo.Facts      `json:"process"`
}

// Span is one request's internal timing inside the API.
type Span struct {
	Seq           int64  `json:"seq"`
	GenerateNanos int64  `json:"generate_ns"`
	LogCallNanos  int64  `json:"log_call_ns"`
	Error         string `json:"error,omitempty"`
}

// APIReport is the API's answer to PathReport.
type APIReport struct {
	APIStatus
	Spans []Span `json:"spans"`
	// Generated is the cumulative count of log bytes generated, one sample per record.
	Generated []logmode.Sample `json:"generated"`
}

// ReaderStatus is the reader's answer to PathStatus.
type ReaderStatus struct {
	Counts tally.Counts        `json:"counts"`
	Cgroup cgroupstat.Snapshot `json:"cgroup"`
	// RateBytesPerSec is the reader's pacing limit; 0 means none.
	RateBytesPerSec   int64          `json:"rate_bytes_per_s"`
	PipeCapacityBytes int64          `json:"pipe_capacity_bytes"`
	Process           procinfo.Facts `json:"process"`
	Err               string         `json:"error,omitempty"`
}

// ReaderReport is the reader's answer to PathReport.
type ReaderReport struct {
	ReaderStatus
	// Read is the cumulative count of bytes read, one sample per read call.
	Read []logmode.Sample `json:"read"`
}

// Client talks to one control port.
type Client struct {
	Base string // e.g. "http://127.0.0.1:9001"
	HTTP *http.Client
}

// Loopback is the listen address of port inside the run's network namespace.
func Loopback(port int) string { return fmt.Sprintf("127.0.0.1:%d", port) }

// NewClient returns a client for the control port on loopback.
func NewClient(port int) *Client {
	return &Client{
		Base: "http://" + Loopback(port),
		HTTP: &http.Client{Timeout: 10 * time.Second},
	}
}

// Get fetches path into out.
func (c *Client) Get(ctx context.Context, path string, out any) error {
	return c.do(ctx, http.MethodGet, path, out)
}

// Post sends an empty POST to path.
func (c *Client) Post(ctx context.Context, path string) error {
	return c.do(ctx, http.MethodPost, path, nil)
}

func (c *Client) do(ctx context.Context, method, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(body))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}

// WriteJSON answers a control request with v.
func WriteJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
