package pythonbase

import (
	"archive/tar"
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// notCopied are folders whose contents belong to the running container, not the image:
// the engine mounts its own /dev, /proc and /sys.
var notCopied = map[string]bool{"dev": true, "proc": true, "sys": true}

// writeTar writes the root file system at root as a tar stream, keeping owners, modes,
// symbolic links and hard links, as an image layer needs them.
func writeTar(w io.Writer, root string) error {
	tw := tar.NewWriter(w)
	type inode struct{ dev, ino uint64 }
	seen := map[inode]string{} // first name of each multiply linked file
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSocket != 0 {
			return nil // a tar cannot hold a socket, and an image needs none
		}
		var link string
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(path); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		hdr.Name = rel
		if info.IsDir() {
			hdr.Name += "/"
		}
		// Numeric owners only: the names are the kit's machine's, not the image's.
		hdr.Uname, hdr.Gname = "", ""
		hdr.AccessTime, hdr.ChangeTime = time.Time{}, time.Time{}
		st, _ := info.Sys().(*syscall.Stat_t)
		if st != nil && info.Mode().IsRegular() && st.Nlink > 1 {
			key := inode{uint64(st.Dev), uint64(st.Ino)}
			if first, ok := seen[key]; ok {
				hdr.Typeflag, hdr.Linkname, hdr.Size = tar.TypeLink, first, 0
			} else {
				seen[key] = rel
			}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if hdr.Typeflag == tar.TypeReg && hdr.Size > 0 {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			_, err = io.Copy(tw, f)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
		}
		if info.IsDir() && notCopied[rel] {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tw.Close()
}

// removeTree removes a work folder of debootstrap's. debootstrap mounts /proc, /sys and
// sometimes the host's /dev inside its target, and a killed debootstrap leaves them
// mounted: unmount those first, and never remove through a mount.
func removeTree(dir string) error {
	mounts, err := mountsUnder(dir)
	if err != nil {
		return fmt.Errorf("left %s: %w", dir, err)
	}
	for _, m := range mounts {
		unix.Unmount(m, unix.MNT_DETACH)
	}
	if mounts, err = mountsUnder(dir); err != nil || len(mounts) > 0 {
		return fmt.Errorf("left %s: still mounted: %s %v", dir, strings.Join(mounts, " "), err)
	}
	return os.RemoveAll(dir)
}

// mountsUnder lists the mount points at or below dir, deepest first.
func mountsUnder(dir string) ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMountinfo(f, dir)
}

func parseMountinfo(r io.Reader, dir string) ([]string, error) {
	dir = filepath.Clean(dir)
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		mp := unescapeMount(fields[4])
		if mp == dir || strings.HasPrefix(mp, dir+"/") {
			out = append(out, mp)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out, nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
