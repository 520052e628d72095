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
)

// Client talks to one control port.
type Client struct {
	Base string // e.g. "http://127.0.0.1:9001"
	HTTP *http.Client
}

// Loopback is the listen address of port inside the run's network namespace.
func Loopback(port int) string { return fmt.Sprintf("127.0.0.1:%d", port) }

// IdleTimeout is how long the client keeps an idle connection for its next request.
// It must be shorter than any API's own idle timeout (Node.js closes after 5 s; the Go
// servers never do; Python's answers HTTP/1.0 and closes each): a POST sent on a
// connection the server is closing meets a reset, and Go resends only idempotent
// requests. A gap as long as a warm-up gets a fresh connection; polls 20 ms apart keep
// theirs, which costs a third of a fresh one (BenchmarkControlRequest).
const IdleTimeout = time.Second

// NewClient returns a client for the control port on loopback.
func NewClient(port int) *Client {
	return &Client{
		Base: "http://" + Loopback(port),
		HTTP: &http.Client{Transport: &http.Transport{IdleConnTimeout: IdleTimeout}, Timeout: 10 * time.Second},
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
