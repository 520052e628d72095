package foreign

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
)

func TestReadyNamesAPortNothingListensOnAndAPathThatIsNot2xx(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := WaitReady(context.Background(), "http://"+addr+"/health", 300*time.Millisecond)
	if r.OK || r.Attempts == 0 || r.Probes != 0 || !strings.Contains(reason(r, "http://"+addr+"/health", 300*time.Millisecond), "nothing listened on "+addr) {
		t.Errorf("closed port: %+v: %s", r, reason(r, "http://"+addr+"/health", time.Second))
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	r = WaitReady(context.Background(), srv.URL+"/health", 300*time.Millisecond)
	if why := reason(r, srv.URL+"/health", 300*time.Millisecond); r.OK || !strings.Contains(why, "GET /health answered 404 Not Found, not 2xx") {
		t.Errorf("404: %+v: %s", r, why)
	}
}

func TestAClosedRunCountsEveryRequestAndTheLogFiles(t *testing.T) {
	for _, load := range []string{contract.LoadClosed, contract.LoadOpen} {
		dir := t.TempDir()
		logFile := filepath.Join(dir, "app.log")
		os.WriteFile(filepath.Join(dir, "result.json"), []byte("{}\n"), 0o644)
		// A server each: a closed run's last request may still be served after it ends.
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			f, _ := os.OpenFile(logFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			f.WriteString("one\ntwo\n")
			f.Close()
		}))
		defer srv.Close()
		p := Params{URL: srv.URL + "/", Load: load, Closed: closedloop.Params{Connections: 2, Pipelining: 1, Duration: 300 * time.Millisecond, Warmup: 100 * time.Millisecond},
			Rate: 200, Warmup: 100 * time.Millisecond, Duration: 300 * time.Millisecond, Timeout: time.Second, ReadyTimeout: time.Second, LogDir: dir, Skip: []string{"result.json"}}
		res, err := Conduct(context.Background(), p)
		if err != nil || res.Failure != "" {
			t.Fatalf("%s: %v %s", load, err, res.Failure)
		}
		if len(res.Files) != 1 || res.Files[0].Path != "app.log" || res.Files[0].Lines > 2*res.SentTotal || res.Files[0].Lines < 2*(res.SentTotal-2) {
			// A request in flight when the closed loop stopped may not be served.
			t.Errorf("%s: files %+v, %d requests sent", load, res.Files, res.SentTotal)
		}
		if load == contract.LoadOpen && (res.Open == nil || res.Open.Status2xx != 60 || res.Open.Scheduled != 60) {
			t.Errorf("open: %+v", res.Open)
		}
	}
}
