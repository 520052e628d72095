// Command files hands a run's folder back where the engine cannot copy it out of a
// container: on Kubernetes the kit runs it beside a run's containers as `files idle`,
// which only waits for its SIGTERM, and reads the conductor's result with `files cat
// PATH` through the Pod's exec subresource. The kit's images are FROM scratch, with no
// tar and no shell, so the engine needs a program of the kit's own for that; it is a
// static Go binary in the images of every conductor (loadgen, qpsload, api).
package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// maxBytes bounds the file it writes, as the kit bounds what it accepts.
const maxBytes = 256 << 20

func main() {
	if len(os.Args) < 2 {
		fail("usage: files idle | files cat PATH")
	}
	switch os.Args[1] {
	case "idle":
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
		<-sig
	case "cat":
		if len(os.Args) != 3 {
			fail("usage: files cat PATH")
		}
		if err := cat(os.Args[2]); err != nil {
			fail(err.Error())
		}
	default:
		fail("unknown command " + os.Args[1] + "; usage: files idle | files cat PATH")
	}
}

// cat writes one regular file of at most maxBytes to stdout.
func cat(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() || st.Size() > maxBytes {
		return fmt.Errorf("%s is not a regular file under %d bytes", path, maxBytes)
	}
	_, err = io.Copy(os.Stdout, io.LimitReader(f, maxBytes))
	return err
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "files:", msg)
	os.Exit(2)
}
