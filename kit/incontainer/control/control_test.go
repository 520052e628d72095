package control

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestAPostAfterAnIdleGapIsNotSentOnAStaleConnection serves each connection one
// kept-alive answer and resets it at its second request, as a server whose idle timeout
// ran out as the request arrived does. The conductor's GET, a warm-up's gap, then POST
// must not meet it.
func TestAPostAfterAnIdleGapIsNotSentOnAStaleConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serveOnceThenReset(c.(*net.TCPConn))
		}
	}()
	c := NewClient(0)
	c.Base = "http://" + ln.Addr().String()
	ctx := context.Background()
	if err := c.Get(ctx, "/ready", nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(IdleTimeout + 200*time.Millisecond) // the warm-up
	if err := c.Post(ctx, "/reset"); err != nil {
		t.Fatalf("the POST went on the first request's connection: %v", err)
	}
}

func serveOnceThenReset(c *net.TCPConn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for i := 0; ; i++ {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		if i > 0 {
			c.SetLinger(0) // close with RST
			return
		}
		if req.Close {
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			return
		}
		c.Write([]byte(strings.Join([]string{"HTTP/1.1 200 OK", "Content-Length: 0", "", ""}, "\r\n")))
	}
}
