package main

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// generatorMeta marks every page report writes, in its <head>: report --force replaces
// a page that carries it and nothing else.
const generatorMeta = `<meta name="generator" content="logbench report">`

// markPage puts generatorMeta at the top of a page's <head>.
func markPage(page []byte) ([]byte, error) {
	head := []byte("<head>")
	i := bytes.Index(page, head)
	if i < 0 {
		return nil, errors.New("the report has no <head> to mark")
	}
	at := i + len(head)
	out := make([]byte, 0, len(page)+len(generatorMeta)+1)
	out = append(out, page[:at]...)
	out = append(out, '\n')
	out = append(out, generatorMeta...)
	return append(out, page[at:]...), nil
}

// maxHeadBytes is how far into an existing page the mark is looked for: it is among
// the first lines the kit writes.
const maxHeadBytes = 4096

// checkReplaceable refuses to let report --force replace a file the kit did not write:
// one without generatorMeta in its <head>.
func checkReplaceable(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return usagef("--out %s: %v", path, err)
	}
	defer f.Close()
	start, err := io.ReadAll(io.LimitReader(f, maxHeadBytes))
	if err != nil {
		return usagef("--out %s: %v", path, err)
	}
	head, _, _ := bytes.Cut(start, []byte("</head>"))
	if !bytes.Contains(head, []byte(generatorMeta)) {
		return usagef("--out %s: --force replaces only a page logbench report wrote, and this one has not its mark (%s); move or delete it yourself", path, generatorMeta)
	}
	return nil
}
