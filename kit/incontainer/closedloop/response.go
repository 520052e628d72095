package closedloop

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// The generator reads responses with this parser rather than net/http's ReadResponse,
// which builds a header map and a body reader for every response: in a CPU profile of
// the earlier generator against the Node API, that work was about a quarter of the
// generator's CPU, CPU taken from the API it loads whenever the two share a core. The
// parser reads what a closed loop needs: where a response ends, its status, and whether the
// server closes the connection after it. It follows RFC 9112: a body is delimited by
// Transfer-Encoding: chunked, else by Content-Length, else by the connection's end;
// 1xx, 204 and 304 responses have none.

// maxHeaderBytes bounds a response's status line and headers, as net/http's default
// does for requests: a server that never ends its headers is an error, not a buffer
// that grows without end.
const maxHeaderBytes = 1 << 20

// errIncomplete says the buffer does not hold a whole response yet.
var errIncomplete = errors.New("incomplete response")

// response is one parsed response.
type response struct {
	size   int  // bytes from the status line to the end of the body
	status int  // the status code
	close  bool // the server closes the connection after it
	// untilClose: the body runs to the connection's end; size then covers the
	// headers only, and the response is complete when the connection ends.
	untilClose bool
}

// parseResponse parses the response at the start of b. It returns errIncomplete when b
// holds only part of it, and another error when it is malformed.
func parseResponse(b []byte) (response, error) {
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		if len(b) > maxHeaderBytes {
			return response{}, fmt.Errorf("response headers over %d bytes", maxHeaderBytes)
		}
		return response{}, errIncomplete
	}
	head := b[:end]
	var r response
	line, rest, _ := bytes.Cut(head, []byte("\r\n"))
	proto, code, ok := bytes.Cut(line, []byte(" "))
	if !ok || !bytes.HasPrefix(proto, []byte("HTTP/1.")) || len(proto) != 8 || len(code) < 3 {
		return response{}, fmt.Errorf("malformed status line %q", clip(line))
	}
	status, err := strconv.Atoi(string(code[:3]))
	if err != nil || status < 100 || status > 999 || (len(code) > 3 && code[3] != ' ') {
		return response{}, fmt.Errorf("malformed status line %q", clip(line))
	}
	r.status = status
	http10 := proto[7] == '0'
	r.close = http10
	length, chunked := -1, false
	for len(rest) > 0 {
		var h []byte
		h, rest, _ = bytes.Cut(rest, []byte("\r\n"))
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok || len(name) == 0 {
			return response{}, fmt.Errorf("malformed header %q", clip(h))
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.Atoi(string(value))
			if err != nil || n < 0 || (length >= 0 && n != length) {
				return response{}, fmt.Errorf("bad Content-Length %q", clip(value))
			}
			length = n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = hasToken(value, "chunked")
		case bytes.EqualFold(name, []byte("Connection")):
			if hasToken(value, "close") {
				r.close = true
			} else if http10 && hasToken(value, "keep-alive") {
				r.close = false
			}
		}
	}
	bodyAt := end + 4
	switch {
	case status < 200 || status == 204 || status == 304:
		r.size = bodyAt
	case chunked:
		n, err := chunkedSize(b[bodyAt:])
		if err != nil {
			return response{}, err
		}
		r.size = bodyAt + n
	case length >= 0:
		if len(b) < bodyAt+length {
			return response{}, errIncomplete
		}
		r.size = bodyAt + length
	default:
		r.size, r.untilClose, r.close = bodyAt, true, true
	}
	return r, nil
}

// chunkedSize is the length of the chunked body at the start of b, trailers included.
func chunkedSize(b []byte) (int, error) {
	at := 0
	for {
		eol := bytes.Index(b[at:], []byte("\r\n"))
		if eol < 0 {
			return 0, errIncomplete
		}
		field, _, _ := bytes.Cut(b[at:at+eol], []byte(";")) // chunk extensions
		size, err := strconv.ParseUint(string(bytes.TrimSpace(field)), 16, 62)
		if err != nil {
			return 0, fmt.Errorf("bad chunk size %q", clip(b[at:at+eol]))
		}
		at += eol + 2
		if size == 0 {
			// Trailers, each ending in CRLF, then an empty line.
			for {
				eol := bytes.Index(b[at:], []byte("\r\n"))
				if eol < 0 {
					return 0, errIncomplete
				}
				at += eol + 2
				if eol == 0 {
					return at, nil
				}
			}
		}
		if uint64(len(b)-at) < size+2 {
			return 0, errIncomplete
		}
		at += int(size)
		if b[at] != '\r' || b[at+1] != '\n' {
			return 0, errors.New("chunk not followed by CRLF")
		}
		at += 2
	}
}

// hasToken says whether the comma-separated header value holds token.
// It allocates nothing: Node.js sends "Connection: keep-alive" with every response.
func hasToken(value []byte, token string) bool {
	for more := true; more; {
		var t []byte
		t, value, more = bytes.Cut(value, []byte(","))
		if bytes.EqualFold(bytes.TrimSpace(t), []byte(token)) {
			return true
		}
	}
	return false
}

// clip keeps an error's quote of the server's bytes short.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}
