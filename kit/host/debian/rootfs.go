package debian

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/blakesmith/ar"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// mergedUsr are the top folders that Debian since bookworm keeps under /usr, with a
// symbolic link in their place (debootstrap makes them before unpacking anything;
// packages still ship files in /bin, /lib, ...). Files a package ships there are
// placed under usr/, where a merged system's dpkg puts them through the link.
var mergedUsr = []string{"bin", "lib", "lib32", "lib64", "libo32", "libx32", "sbin"}

// notCopied are folders whose contents belong to the running container: the engine
// mounts its own /dev, /proc and /sys.
var notCopied = []string{"dev", "proc", "sys"}

// node is one entry of the root file system.
type node struct {
	hdr  tar.Header // Name without "./" prefix or trailing slash
	body []byte
	pkg  string
}

// tree is a root file system being assembled in memory.
type tree struct {
	nodes map[string]*node
	strip []string
}

func newTree(strip []string) *tree {
	return &tree{nodes: map[string]*node{}, strip: strip}
}

// dataTar opens the data.tar.{xz,zst,gz} member of a .deb.
func dataTar(deb []byte) (io.Reader, error) {
	r := ar.NewReader(bytes.NewReader(deb))
	for {
		h, err := r.Next()
		if err == io.EOF {
			return nil, errors.New("no data.tar member: not a .deb")
		}
		if err != nil {
			return nil, fmt.Errorf("reading the .deb: %w", err)
		}
		name := strings.TrimRight(h.Name, "/ ")
		if !strings.HasPrefix(name, "data.tar") {
			continue
		}
		body, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		switch name {
		case "data.tar":
			return bytes.NewReader(body), nil
		case "data.tar.xz":
			return xz.NewReader(bytes.NewReader(body))
		case "data.tar.zst":
			d, err := zstd.NewReader(bytes.NewReader(body))
			if err != nil {
				return nil, err
			}
			return d.IOReadCloser(), nil
		case "data.tar.gz":
			return gzip.NewReader(bytes.NewReader(body))
		}
		return nil, fmt.Errorf("unknown member %s", name)
	}
}

// clean turns a path from a package's tar into the tree's form: relative, cleaned, the
// merged-/usr folders under usr/. "" stands for the root.
func clean(name string) string {
	name = path.Clean("/" + name)[1:]
	top, _, _ := strings.Cut(name, "/")
	for _, m := range mergedUsr {
		if top == m {
			return "usr/" + name
		}
	}
	return name
}

func under(name, dir string) bool { return strings.HasPrefix(name, dir+"/") }

// stripped reports whether name is left out of the image.
func (t *tree) stripped(name string, typ byte) bool {
	for _, d := range notCopied {
		if under(name, d) {
			return true
		}
	}
	for _, d := range t.strip {
		if !under(name, d) {
			continue
		}
		// A package's copyright stays: usr/share/doc/<package>/copyright.
		if d == "usr/share/doc" {
			rest := strings.Split(strings.TrimPrefix(name, d+"/"), "/")
			if len(rest) == 1 && typ == tar.TypeDir {
				return false
			}
			if len(rest) == 2 && rest[1] == "copyright" && (typ == tar.TypeReg || typ == tar.TypeLink) {
				return false
			}
		}
		return true
	}
	return false
}

// addDeb merges the data of a .deb into the tree.
func (t *tree) addDeb(deb []byte, pkg string) error {
	data, err := dataTar(deb)
	if err != nil {
		return err
	}
	tr := tar.NewReader(data)
	// Bodies of stripped files, in case a kept hard link names one.
	strippedBodies := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("data.tar: %w", err)
		}
		if err := plainName(h.Name); err != nil {
			return fmt.Errorf("data.tar: %q: %w", cut(h.Name), err)
		}
		name := clean(h.Name)
		if name == "" {
			continue
		}
		// tar.Reader has already made a legacy TypeRegA entry TypeReg (or TypeDir).
		typ := h.Typeflag
		if (typ == tar.TypeChar || typ == tar.TypeBlock) && !under(name, "dev") {
			return fmt.Errorf("data.tar: %s: a device outside dev/: refused", cut(name))
		}
		n := &node{pkg: pkg, hdr: tar.Header{
			Typeflag: typ, Name: name, Mode: h.Mode & 0o7777, Uid: h.Uid, Gid: h.Gid,
			Devmajor: h.Devmajor, Devminor: h.Devminor,
		}}
		switch typ {
		case tar.TypeReg:
			if n.body, err = io.ReadAll(tr); err != nil {
				return fmt.Errorf("data.tar: %s: %w", name, err)
			}
			n.hdr.Size = int64(len(n.body))
		case tar.TypeSymlink:
			n.hdr.Linkname = h.Linkname
		case tar.TypeLink:
			if err := plainName(h.Linkname); err != nil {
				return fmt.Errorf("data.tar: %s: hard link to %q: %w", name, cut(h.Linkname), err)
			}
			n.hdr.Linkname = clean(h.Linkname)
		case tar.TypeDir, tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		default:
			return fmt.Errorf("data.tar: %s: entry type %q", name, typ)
		}
		if t.stripped(name, typ) {
			if typ == tar.TypeReg {
				strippedBodies[name] = n.body
			}
			continue
		}
		if typ == tar.TypeLink {
			target, ok := t.nodes[n.hdr.Linkname]
			switch {
			case ok && target.hdr.Typeflag == tar.TypeReg:
			case strippedBodies[n.hdr.Linkname] != nil:
				// The link outlives its stripped target: it takes the content.
				n.hdr.Typeflag, n.hdr.Linkname, n.body = tar.TypeReg, "", strippedBodies[n.hdr.Linkname]
				n.hdr.Size = int64(len(n.body))
			default:
				return fmt.Errorf("data.tar: %s: hard link to %s, which is not a file before it", name, n.hdr.Linkname)
			}
		}
		if err := t.put(n); err != nil {
			return err
		}
	}
}

// put adds n, refusing to replace another package's file by a different one.
func (t *tree) put(n *node) error {
	old, ok := t.nodes[n.hdr.Name]
	if !ok {
		t.nodes[n.hdr.Name] = n
		return nil
	}
	if old.hdr.Typeflag == tar.TypeDir && n.hdr.Typeflag == tar.TypeDir {
		return nil // shared folders: the first package's owner and mode stay
	}
	if old.hdr.Typeflag == n.hdr.Typeflag && old.hdr.Linkname == n.hdr.Linkname && bytes.Equal(old.body, n.body) {
		return nil
	}
	return fmt.Errorf("%s is in both %s and %s", n.hdr.Name, old.pkg, n.pkg)
}

// finish makes what maintainer scripts and debootstrap would have made and the image
// needs: the merged-/usr links, spec's copies and links, dpkg's status file, and every
// folder an entry needs.
func (t *tree) finish(spec Spec, pkgs []*entry) error {
	dir := func(name string, mode int64) {
		if _, ok := t.nodes[name]; !ok {
			t.nodes[name] = &node{hdr: tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: mode}}
		}
	}
	for _, m := range []string{"usr/bin", "usr/lib", "usr/sbin"} {
		dir(m, 0o755)
	}
	for _, m := range mergedUsr {
		if n, ok := t.nodes["usr/"+m]; ok && n.hdr.Typeflag == tar.TypeDir {
			if err := t.put(&node{pkg: "merged /usr", hdr: tar.Header{Typeflag: tar.TypeSymlink, Name: m, Linkname: "usr/" + m, Mode: 0o777}}); err != nil {
				return err
			}
		}
	}
	for _, c := range spec.Copies {
		from, ok := t.nodes[c.From]
		if !ok || from.hdr.Typeflag != tar.TypeReg {
			return fmt.Errorf("copy %s to %s: no such file in the packages", c.From, c.To)
		}
		hdr := from.hdr
		hdr.Name = c.To
		if err := t.put(&node{pkg: "copy of " + c.From, hdr: hdr, body: from.body}); err != nil {
			return err
		}
	}
	for _, l := range spec.Links {
		if err := t.put(&node{pkg: "link " + l.Path, hdr: tar.Header{Typeflag: tar.TypeSymlink, Name: l.Path, Linkname: l.Target, Mode: 0o777}}); err != nil {
			return err
		}
	}
	if err := t.throughLinks(); err != nil {
		return err
	}
	status := dpkgStatus(pkgs)
	if err := t.put(&node{pkg: "dpkg status", body: status, hdr: tar.Header{Typeflag: tar.TypeReg, Name: "var/lib/dpkg/status", Mode: 0o644, Size: int64(len(status))}}); err != nil {
		return err
	}
	// The folders of the file system's standard layout that a container expects even
	// when no package ships them; /tmp must be writable by everyone.
	for _, d := range []string{"dev", "proc", "sys", "etc", "root", "run", "var", "var/lib"} {
		dir(d, 0o755)
	}
	dir("tmp", 0o1777)
	for _, name := range sortedKeys(t.nodes) {
		for p := path.Dir(name); p != "."; p = path.Dir(p) {
			dir(p, 0o755)
		}
	}
	return nil
}

// statusDropped are fields of a Packages index that are about the archive's file, not
// the installed package.
var statusDropped = map[string]bool{"Filename": true, "Size": true, "MD5sum": true, "SHA256": true, "Description-md5": true, "Tag": true}

// dpkgStatus is dpkg's status file listing pkgs as installed. dpkg itself is not in
// the image, but scanners and people read this file to know what an image holds.
func dpkgStatus(pkgs []*entry) []byte {
	var b bytes.Buffer
	for _, p := range pkgs {
		dropping := false
		for _, line := range strings.Split(string(p.rawStanza), "\n") {
			if line == "" {
				continue
			}
			if line[0] != ' ' && line[0] != '\t' {
				k, _, _ := strings.Cut(line, ":")
				dropping = statusDropped[k]
			}
			if dropping {
				continue
			}
			b.WriteString(line)
			b.WriteByte('\n')
			if strings.HasPrefix(line, "Package:") {
				b.WriteString("Status: install ok installed\n")
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// write writes the tree as a tar stream sorted by name, every entry dated mtime, and
// returns the number of entries. Of a set of hard-linked names the first in order
// holds the content, as a walk of a file system would write it.
func (t *tree) write(w io.Writer, mtime time.Time) (int, error) {
	// Hard-link sets: the first name in order becomes the file.
	for _, name := range sortedKeys(t.nodes) {
		n := t.nodes[name]
		if n.hdr.Typeflag != tar.TypeLink || n.hdr.Linkname < name {
			continue
		}
		target := t.nodes[n.hdr.Linkname]
		hdr := target.hdr
		hdr.Name = name
		t.nodes[name] = &node{hdr: hdr, body: target.body, pkg: n.pkg}
		target.hdr = tar.Header{Typeflag: tar.TypeLink, Name: target.hdr.Name, Linkname: name, Mode: hdr.Mode, Uid: hdr.Uid, Gid: hdr.Gid}
		target.body = nil
		for _, other := range t.nodes {
			if other.hdr.Typeflag == tar.TypeLink && other.hdr.Linkname == n.hdr.Linkname {
				other.hdr.Linkname = name
			}
		}
	}
	tw := tar.NewWriter(w)
	count := 0
	for _, name := range sortedKeys(t.nodes) {
		n := t.nodes[name]
		hdr := n.hdr
		hdr.ModTime = mtime.UTC()
		hdr.Format = tar.FormatPAX
		if hdr.Typeflag == tar.TypeDir {
			hdr.Name += "/"
		}
		if hdr.Typeflag == tar.TypeLink && hdr.Linkname == name {
			return count, fmt.Errorf("%s: hard link to itself", name)
		}
		if err := tw.WriteHeader(&hdr); err != nil {
			return count, fmt.Errorf("%s: %w", name, err)
		}
		if hdr.Typeflag == tar.TypeReg {
			if _, err := tw.Write(n.body); err != nil {
				return count, fmt.Errorf("%s: %w", name, err)
			}
		}
		count++
	}
	return count, tw.Close()
}

// plainName refuses a name in a package's data.tar that is absolute or has a `..`:
// dpkg-deb writes "./usr/bin/x", and anything else would be placed somewhere the
// package did not say.
func plainName(name string) error {
	if strings.HasPrefix(name, "/") {
		return errors.New("an absolute name: refused")
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return errors.New("`..` in the name: refused")
		}
	}
	return nil
}

// throughLinks refuses every entry whose path passes through a symbolic link of the
// tree, or under anything else that is not a folder: an unpacker that follows the link would write it elsewhere (a link
// usr/share/x -> /etc, then usr/share/x/passwd, is the image's /etc/passwd), round the
// check that no file is in two packages.
func (t *tree) throughLinks() error {
	for _, name := range sortedKeys(t.nodes) {
		for p := path.Dir(name); p != "."; p = path.Dir(p) {
			l, ok := t.nodes[p]
			switch {
			case !ok || l.hdr.Typeflag == tar.TypeDir:
			case l.hdr.Typeflag == tar.TypeSymlink:
				return fmt.Errorf("%s (from %s) passes through the symbolic link %s -> %s (from %s): refused",
					cut(name), t.nodes[name].pkg, cut(p), cut(l.hdr.Linkname), l.pkg)
			default:
				return fmt.Errorf("%s (from %s) is under %s (from %s), which is not a folder: refused", cut(name), t.nodes[name].pkg, cut(p), l.pkg)
			}
		}
	}
	return nil
}
