package debian

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/blakesmith/ar"
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
	body extent     // a regular file's content
	pkg  string
}

// extent is where a file's content is in the tree's spool, and its digest.
type extent struct {
	off, size int64
	sum       [sha256.Size]byte
}

func (e extent) sameContent(o extent) bool { return e.size == o.size && e.sum == o.sum }

// tree is a root file system being assembled: its entries in memory, the contents of
// its files in a spool file on disk, so that memory does not grow with the packages'
// sizes.
type tree struct {
	nodes map[string]*node
	strip []string
	spool *os.File
	// spooled is the spool's length: where the next content goes.
	spooled int64
	buf     []byte // for copies to and from the spool
	caps    caps
	// expanded and entries count what the packages gave so far, against caps.
	expanded int64
	entries  int
}

// newTree makes a tree whose spool is a temporary file in workDir (the system's
// temporary folder when empty); close removes it.
func newTree(strip []string, workDir string) (*tree, error) {
	spool, err := os.CreateTemp(workDir, "logbench-rootfs-files-*")
	if err != nil {
		return nil, fmt.Errorf("the root file system's work file: %w", err)
	}
	return &tree{nodes: map[string]*node{}, strip: strip, spool: spool, buf: make([]byte, 64<<10), caps: defaultCaps}, nil
}

func (t *tree) close() {
	t.spool.Close()
	os.Remove(t.spool.Name())
}

// store copies the size bytes of r to the spool.
func (t *tree) store(r io.Reader, size int64) (extent, error) {
	h := sha256.New()
	n, err := io.CopyBuffer(io.MultiWriter(t.spool, h), io.LimitReader(r, size), t.buf)
	if err == nil && n != size {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return extent{}, err
	}
	e := extent{off: t.spooled, size: size}
	h.Sum(e.sum[:0])
	t.spooled += size
	return e, nil
}

// content reads a file's content back from the spool.
func (t *tree) content(e extent) io.Reader { return io.NewSectionReader(t.spool, e.off, e.size) }

// dataTar opens the data.tar.{xz,zst,gz} member of the .deb f, streaming: nothing of
// it is read into memory whole.
func dataTar(f *os.File) (io.ReadCloser, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pos := &countingReader{r: f}
	r := ar.NewReader(pos)
	for {
		h, err := r.Next()
		if err == io.EOF {
			return nil, errors.New("no data.tar member: not a .deb")
		}
		if err != nil {
			return nil, fmt.Errorf("reading the .deb: %w", err)
		}
		name := strings.TrimRight(h.Name, "/ ")
		if h.Size < 0 || h.Size > st.Size()-pos.n {
			return nil, fmt.Errorf("reading the .deb: member %s says %d bytes, which the file does not have", cut(name), h.Size)
		}
		if !strings.HasPrefix(name, "data.tar") {
			continue
		}
		data, err := decompress(name, io.NewSectionReader(f, pos.n, h.Size))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cut(name), err)
		}
		return data, nil
	}
}

// expandedReader counts the bytes a package's data.tar expands to against the tree's
// cap for all packages together.
type expandedReader struct {
	r io.Reader
	t *tree
}

func (e expandedReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	e.t.expanded += int64(n)
	if e.t.expanded > e.t.caps.expanded {
		return n, fmt.Errorf("the packages expand to more than %d MiB (maxExpandedBytes): refused", e.t.caps.expanded>>20)
	}
	return n, err
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

// notCopied reports whether name is in a folder the engine provides.
func (t *tree) notCopied(name string) bool {
	for _, d := range notCopied {
		if under(name, d) {
			return true
		}
	}
	return false
}

// stripped reports whether name is left out of the image.
func (t *tree) stripped(name string, typ byte) bool {
	if t.notCopied(name) {
		return true
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

// addDeb merges the data of the .deb file debPath into the tree.
func (t *tree) addDeb(debPath, pkg string) error {
	f, err := os.Open(debPath)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := dataTar(f)
	if err != nil {
		return err
	}
	defer data.Close()
	tr := tar.NewReader(expandedReader{r: data, t: t})
	// Contents of stripped files, in case a kept hard link names one.
	strippedBodies := map[string]extent{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("data.tar: %w", err)
		}
		if t.entries++; t.entries > t.caps.entries {
			return fmt.Errorf("data.tar: the packages hold more than %d entries (maxEntries): refused", t.caps.entries)
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
		if !t.notCopied(name) {
			if err := checkEntry(name, typ, h.Mode&0o7777); err != nil {
				return fmt.Errorf("data.tar: %s: %w", cut(name), err)
			}
		}
		n := &node{pkg: pkg, hdr: tar.Header{
			Typeflag: typ, Name: name, Mode: h.Mode & 0o7777, Uid: h.Uid, Gid: h.Gid,
			Devmajor: h.Devmajor, Devminor: h.Devminor,
		}}
		switch typ {
		case tar.TypeReg:
			// The header's size is what the tar reader will give, so the cap is
			// applied before a byte is read.
			if h.Size > t.caps.file {
				return fmt.Errorf("data.tar: %s: %d bytes, more than the %d MiB a file may have (maxFileBytes): refused", cut(name), h.Size, t.caps.file>>20)
			}
			if n.body, err = t.store(tr, h.Size); err != nil {
				return fmt.Errorf("data.tar: %s: %w", cut(name), err)
			}
			n.hdr.Size = h.Size
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
			stripped, wasStripped := strippedBodies[n.hdr.Linkname]
			switch {
			case ok && target.hdr.Typeflag == tar.TypeReg:
			case wasStripped:
				// The link outlives its stripped target: it takes the content.
				n.hdr.Typeflag, n.hdr.Linkname, n.body = tar.TypeReg, "", stripped
				n.hdr.Size = stripped.size
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
	if old.hdr.Typeflag == n.hdr.Typeflag && old.hdr.Linkname == n.hdr.Linkname && old.body.sameContent(n.body) {
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
	body, err := t.store(bytes.NewReader(status), int64(len(status)))
	if err != nil {
		return fmt.Errorf("the root file system's work file: %w", err)
	}
	if err := t.put(&node{pkg: "dpkg status", body: body, hdr: tar.Header{Typeflag: tar.TypeReg, Name: "var/lib/dpkg/status", Mode: 0o644, Size: body.size}}); err != nil {
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
		target.body = extent{}
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
			if _, err := io.CopyBuffer(tw, t.content(n.body), t.buf); err != nil {
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

// expectedModes are the entries of the kit's bases that checkEntry would otherwise
// refuse, each with its package and why it is there. They were found by listing every
// data.tar of the three bases' packages (Python, Node and wrk on bookworm amd64, 333
// packages): nothing else in them is setuid or setgid, writable by anyone without the
// sticky bit, a FIFO or a device.
var expectedModes = map[string]expectedMode{
	"var/local": {typ: tar.TypeDir, mode: 0o2775, pkg: "base-files",
		why: "Debian policy 9.1.2: /var/local belongs to group staff and is setgid so that what is made in it stays the group's; setgid on a folder gives no one privileges"},
}

type expectedMode struct {
	typ      byte
	mode     int64
	pkg, why string
}

// checkEntry refuses what a package may not bring into the image unless expectedModes
// lists it: a device or a FIFO outside dev/ (a FIFO at etc/ld.so.preload hangs every
// program that starts), a setuid or setgid entry (the kit runs every container as an
// unprivileged user with no-new-privileges, so a base needs none, and an image built
// FROM one may run otherwise), and anything writable by anyone but a folder with the
// sticky bit (/tmp), which any process in the container could change under the others.
func checkEntry(name string, typ byte, mode int64) error {
	e, expected := expectedModes[name]
	if expected && e.typ == typ && e.mode == mode {
		return nil
	}
	if expected && (mode&0o6000 != 0 || mode&0o002 != 0) {
		return fmt.Errorf("mode %04o (type %q), where %s ships %04o (type %q): refused", mode, typ, e.pkg, e.mode, e.typ)
	}
	switch {
	case typ == tar.TypeChar || typ == tar.TypeBlock:
		return errors.New("a device outside dev/: refused")
	case typ == tar.TypeFifo:
		return errors.New("a FIFO outside dev/: refused")
	case mode&0o6000 != 0:
		return fmt.Errorf("mode %04o is setuid or setgid: refused (the kit's containers run unprivileged with no-new-privileges; expected entries are listed in expectedModes)", mode)
	case typ == tar.TypeDir && mode&0o002 != 0 && mode&0o1000 == 0:
		return fmt.Errorf("mode %04o: a folder writable by anyone without the sticky bit: refused (expected entries are listed in expectedModes)", mode)
	case typ != tar.TypeDir && typ != tar.TypeSymlink && mode&0o002 != 0:
		return fmt.Errorf("mode %04o: writable by anyone: refused (expected entries are listed in expectedModes)", mode)
	}
	return nil
}
