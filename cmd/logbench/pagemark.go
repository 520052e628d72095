package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Every page report writes carries, at the top of its <head>, a mark with the SHA-256
// of the page without that mark: report --force replaces a page only when the mark is
// there and the digest is the page's own. Quoting the mark in a page of one's own, or
// editing a page the kit wrote, leaves a page whose digest does not hold, and it is
// refused.
const (
	markPrefix = `<meta name="generator" content="logbench report; sha256=`
	markSuffix = `">`
	// markBytes is the mark's length: the prefix, 64 hex digits, the suffix.
	markBytes = len(markPrefix) + 2*sha256.Size + len(markSuffix)
)

// legacyMark is what pages of earlier kits carry: a name, with nothing to check.
const legacyMark = `<meta name="generator" content="logbench report">`

// pageMark is the mark of page, a page without one.
func pageMark(page []byte) string {
	sum := sha256.Sum256(page)
	return markPrefix + hex.EncodeToString(sum[:]) + markSuffix
}

// markPage puts the page's mark at the top of its <head>, on a line of its own.
func markPage(page []byte) ([]byte, error) {
	head := []byte("<head>")
	i := bytes.Index(page, head)
	if i < 0 {
		return nil, errors.New("the report has no <head> to mark")
	}
	at := i + len(head)
	mark := pageMark(page)
	out := make([]byte, 0, len(page)+len(mark)+1)
	out = append(out, page[:at]...)
	out = append(out, '\n')
	out = append(out, mark...)
	return append(out, page[at:]...), nil
}

// maxHeadBytes is how far into an existing page the mark is looked for: the kit writes
// it in its first lines.
const maxHeadBytes = 4096

// checkReplaceable refuses to let report --force replace a file it cannot prove the kit
// wrote: one whose <head> does not begin with a mark whose digest is that of the rest
// of the file. The file is read once, streamed, and never opened if it is not a
// regular file.
func checkReplaceable(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return usagef("--out %s: %v", path, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return usagef("--out %s: not a regular file; nothing replaces it", path)
	}
	refuse := func(why string) error {
		return usagef("--out %s: --force replaces only a page logbench report wrote and nobody changed since, and %s; move or delete it yourself", path, why)
	}
	r := bufio.NewReaderSize(f, maxHeadBytes)
	start, err := r.Peek(maxHeadBytes)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return usagef("--out %s: %v", path, err)
	}
	head, _, _ := bytes.Cut(start, []byte("</head>"))
	at := bytes.Index(head, []byte("<head>\n"+markPrefix))
	switch {
	case at < 0 && bytes.Contains(head, []byte(legacyMark)):
		return refuse("this page carries an earlier kit's mark, which holds no digest of the page to check")
	case at < 0:
		return refuse("this file does not carry its mark")
	}
	markAt := at + len("<head>\n")
	if len(start) < markAt+markBytes {
		return refuse("its mark is cut short")
	}
	mark := start[markAt : markAt+markBytes]
	want, err := hex.DecodeString(string(mark[len(markPrefix) : len(markPrefix)+2*sha256.Size]))
	if err != nil || !bytes.HasSuffix(mark, []byte(markSuffix)) {
		return refuse("its mark is not one the kit writes")
	}
	// The page as it was before the mark: everything but the newline and the mark.
	h := sha256.New()
	h.Write(start[:markAt-1])
	if _, err := r.Discard(markAt + markBytes); err != nil {
		return usagef("--out %s: %v", path, err)
	}
	if _, err := io.Copy(h, r); err != nil {
		return usagef("--out %s: %v", path, err)
	}
	if !bytes.Equal(h.Sum(nil), want) {
		return refuse(fmt.Sprintf("its content does not match the digest in its mark (%.12s…): it was changed, or the mark was copied from another page", hex.EncodeToString(want)))
	}
	return nil
}
