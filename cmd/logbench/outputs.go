package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// errHelpShown ends a command whose line asked for --help among its arguments: the help
// was printed, nothing else is done, and the exit status is 0.
var errHelpShown = errors.New("help shown")

// helpOrErr turns errHelpShown into success.
func helpOrErr(err error) error {
	if errors.Is(err, errHelpShown) {
		return nil
	}
	return err
}

// checkOutput refuses an output path that would damage data: inside a bundle folder
// (one of the inputs or any other), over a bundle archive or any input, over anything
// but a regular file, and, without force, over anything at all. With force, only a
// regular file whose name ends in suffix (the kind of file the command writes) is
// replaced.
func checkOutput(out, suffix string, force bool, inputs []string) error {
	if !strings.HasSuffix(out, suffix) {
		return usagef("--out %s: this command writes a %s file; name it so", out, suffix)
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return usagef("--out %s: %v", out, err)
	}
	dir := resolved(filepath.Dir(abs))
	for d := dir; ; d = filepath.Dir(d) {
		if isBundleFolder(d) {
			return usagef("--out %s: inside the bundle folder %s; a bundle holds only its own files, so write it elsewhere", out, d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	target := filepath.Join(dir, filepath.Base(abs))
	for _, in := range inputs {
		inAbs, err := filepath.Abs(in)
		if err != nil {
			continue
		}
		inAbs = resolved(inAbs)
		if target == inAbs {
			return usagef("--out %s: that is the input %s", out, in)
		}
		if rel, err := filepath.Rel(inAbs, target); err == nil && !strings.HasPrefix(rel, "..") {
			return usagef("--out %s: inside the input %s", out, in)
		}
	}
	info, err := os.Lstat(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return usagef("--out %s: %v", out, err)
	case !info.Mode().IsRegular():
		return usagef("--out %s: exists and is not a regular file (%s); nothing replaces it", out, kind(info.Mode()))
	case bundle.IsArchive(out):
		return usagef("--out %s: already exists and is a bundle archive; nothing replaces it", out)
	case !force:
		return usagef("--out %s: already exists; pass --force to replace it, or choose another file", out)
	}
	return nil
}

// resolved follows symbolic links where it can, so that a link to a bundle folder is
// the folder.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// isBundleFolder says whether dir holds a bundle of any experiment, whole or partly
// written: its checksums, or its manifest with one of its other files.
func isBundleFolder(dir string) bool {
	has := func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	}
	if has(bundle.SumsFile) {
		return true
	}
	if !has(bundle.ManifestFile) {
		return false
	}
	for _, e := range experiments.All {
		for _, name := range e.Info().Layout {
			if name != bundle.ManifestFile && name != bundle.SumsFile && has(name) {
				return true
			}
		}
	}
	return false
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// writeOutput writes path through a new file beside it, renamed over the old one when
// replace is set (a failure leaves the old file as it was), else linked to a name that
// must still be free: a file that appeared since checkOutput is never overwritten.
func writeOutput(path string, body []byte, replace bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	// An interrupt removes it (interruptible): never a half-written file left behind.
	addPendingOutput(tmp.Name())
	defer dropPendingOutput(tmp.Name())
	_, err = tmp.Write(body)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil && replace {
		err = os.Rename(tmp.Name(), path)
	} else if err == nil {
		if err = os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
			os.Remove(tmp.Name())
			return usagef("%s: already exists; pass --force to replace it, or choose another file", path)
		}
		os.Remove(tmp.Name())
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
