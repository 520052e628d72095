// Package archive writes a folder of files as a deterministic .tar.gz, and reads one back
// into memory with every defence a hostile archive calls for: nothing is ever unpacked
// to disk, and anything that could escape the folder, alias a file or exhaust memory is
// refused.
package archive

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/logbench/logbench/kit/offline/regular"
)

// File is one file of the archived folder.
type File struct {
	Name string // a plain name: the folder is flat
	Body []byte
}

// Limits bound what Read accepts, so that a hostile archive cannot exhaust memory.
type Limits struct {
	MaxEntries    int   // entries of any kind, the folder's own included
	MaxFileBytes  int64 // any one file
	MaxTotalBytes int64 // every file together
	// MaxBytesOf, if set, is a tighter bound for a file by its name (within the
	// folder), or 0 for MaxFileBytes: a table of one row per run need not be as big as
	// one of every request.
	MaxBytesOf func(name string) int64
}

// DefaultLimits suit a result bundle: a handful of files, each under 64 MiB, 128 MiB in
// all (the biggest archived bundle holds 3.5 MB).
var DefaultLimits = Limits{MaxEntries: 64, MaxFileBytes: 64 << 20, MaxTotalBytes: 128 << 20}

// Mode bits in an archive: fixed, so the archive does not depend on the umask.
const (
	FileMode   = 0o644
	FolderMode = 0o755
)

// Write writes folder and its files to w as a .tar.gz that depends on nothing but its
// arguments: files in the order given, every time mtime (to the second, 0 for the zero
// time), uid and gid 0 with no user names, fixed modes, and a gzip header with neither
// name nor time. The same files give a byte-identical archive.
func Write(w io.Writer, folder string, files []File, mtime time.Time) error {
	if err := checkName(folder); err != nil {
		return fmt.Errorf("folder name: %w", err)
	}
	if mtime.IsZero() || mtime.Before(time.Unix(0, 0)) {
		mtime = time.Unix(0, 0)
	}
	mtime = mtime.UTC().Truncate(time.Second)
	seen := map[string]bool{}
	for _, f := range files {
		if err := checkName(f.Name); err != nil {
			return fmt.Errorf("file name: %w", err)
		}
		if seen[f.Name] {
			return fmt.Errorf("file %q given twice", f.Name)
		}
		seen[f.Name] = true
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	dir := &tar.Header{Typeflag: tar.TypeDir, Name: folder + "/", Mode: FolderMode, ModTime: mtime}
	if err := tw.WriteHeader(dir); err != nil {
		return err
	}
	for _, f := range files {
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: folder + "/" + f.Name, Mode: FileMode, Size: int64(len(f.Body)), ModTime: mtime}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		if _, err := tw.Write(f.Body); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// Error is an archive that Read refuses; Entry names the entry at fault, if one is.
type Error struct {
	Entry string
	Msg   string
}

func (e *Error) Error() string {
	if e.Entry == "" {
		return e.Msg
	}
	return fmt.Sprintf("entry %s: %s", quote(e.Entry), e.Msg)
}

// quote shows an entry name safely on one line, however hostile.
func quote(s string) string {
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Read reads a .tar.gz holding one flat folder into memory and returns the folder's name
// and its files in archive order. It refuses, naming the entry: absolute paths, `..`,
// names that are not clean, anything outside the folder or in a subfolder, symbolic and
// hard links, devices, FIFOs and every other non-regular entry, a setuid, setgid or
// sticky bit, any mode but 0644 for a file and 0755 for the folder, any owner but 0:0
// (ownerModeProblem), a name seen twice, more entries or bigger files than lim allows,
// and a truncated or corrupt stream.
//
// An archive has one meaning: exactly one gzip member holding one tar stream that ends
// with its two zero blocks, followed by nothing but the zeros that pad a tar record.
// A second gzip member, bytes after the first, or a tar stream without its end blocks
// is refused, because other readers (tar xzf reads every member) would unpack files
// this reader never saw.
func Read(r io.Reader, lim Limits) (folder string, files []File, err error) {
	// A bufio.Reader of our own: gzip reads through it byte by byte (io.ByteReader) and
	// so stops at the member's end, leaving whatever follows to be seen here.
	src := bufio.NewReader(r)
	zr, err := gzip.NewReader(src)
	if err != nil {
		return "", nil, &Error{Msg: "not a gzip stream: " + err.Error()}
	}
	defer zr.Close()
	zr.Multistream(false) // one gzip member: what follows is checked below, not read
	// The tar stream itself is bounded too: headers and padding take a little room
	// beyond the files, and a PAX record at most 1 MiB per entry (archive/tar's own cap).
	stream := &capped{r: zr, left: lim.MaxTotalBytes + int64(lim.MaxEntries+2)*(1<<20+1024) + 10240}
	tr := tar.NewReader(stream)
	seen := map[string]bool{}
	var total int64
	entries := 0
	for {
		before := stream.read
		stream.zeros = 0
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			// archive/tar also takes a stream that simply stops (no end blocks, or
			// one) as its end. The call that ends it skips the last entry's padding
			// (under 512 bytes) and must then have read two zero blocks.
			if n := stream.read - before; n < 2*blockSize || stream.zeros < 2*blockSize {
				if head, _ := src.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
					return "", nil, &Error{Msg: "the tar stream stops without its two zero end blocks and a second gzip member follows (tar xzf would read it as more files): refused"}
				}
				return "", nil, &Error{Msg: "the tar stream stops without its two zero end blocks: refused"}
			}
			break
		}
		if err != nil {
			return "", nil, streamError(err, stream)
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue // PAX global metadata (git archive writes one): names no file
		}
		if entries++; entries > lim.MaxEntries {
			return "", nil, &Error{Msg: fmt.Sprintf("more than %d entries", lim.MaxEntries)}
		}
		name := hdr.Name
		shown := strings.TrimPrefix(name, "./")
		if shown == "" {
			shown = name
		}
		if msg := kindProblem(hdr); msg != "" {
			return "", nil, &Error{Entry: shown, Msg: msg}
		}
		// Checked of the current folder's entry too: tar xzf as root applies its mode
		// to the folder it unpacks into.
		if msg := ownerModeProblem(hdr); msg != "" {
			return "", nil, &Error{Entry: shown, Msg: msg}
		}
		if hdr.Typeflag == tar.TypeDir && (name == "./" || name == ".") {
			continue // `tar -C parent .` writes the current folder first
		}
		// `tar czf x.tar.gz ./bundle` spells every name with a leading "./".
		name = strings.TrimPrefix(name, "./")
		isDir := hdr.Typeflag == tar.TypeDir
		clean := strings.TrimSuffix(name, "/")
		if err := checkPath(name, clean, isDir); err != nil {
			return "", nil, &Error{Entry: name, Msg: err.Error()}
		}
		top, rest, _ := strings.Cut(clean, "/")
		if folder == "" {
			folder = top
		} else if top != folder {
			return "", nil, &Error{Entry: name, Msg: fmt.Sprintf("outside the folder %s: an archive holds one folder", quote(folder))}
		}
		if isDir {
			if rest != "" {
				return "", nil, &Error{Entry: name, Msg: "a subfolder: the folder is flat"}
			}
			if seen[clean+"/"] {
				return "", nil, &Error{Entry: name, Msg: "the folder appears twice"}
			}
			seen[clean+"/"] = true
			continue
		}
		if rest == "" {
			return "", nil, &Error{Entry: name, Msg: "a file outside any folder"}
		}
		if strings.Contains(rest, "/") {
			return "", nil, &Error{Entry: name, Msg: "in a subfolder: the folder is flat"}
		}
		if seen[rest] {
			return "", nil, &Error{Entry: name, Msg: "appears twice"}
		}
		seen[rest] = true
		// The header's size is checked before a byte of the file is read.
		most := lim.MaxFileBytes
		if lim.MaxBytesOf != nil {
			if m := lim.MaxBytesOf(rest); m > 0 && m < most {
				most = m
			}
		}
		if hdr.Size < 0 || hdr.Size > most {
			return "", nil, &Error{Entry: name, Msg: fmt.Sprintf("%d bytes, more than the %d a file may have", hdr.Size, most)}
		}
		if total += hdr.Size; total > lim.MaxTotalBytes {
			return "", nil, &Error{Entry: name, Msg: fmt.Sprintf("the files add up to more than %d bytes", lim.MaxTotalBytes)}
		}
		body := make([]byte, hdr.Size)
		if _, err := io.ReadFull(tr, body); err != nil {
			return "", nil, &Error{Entry: name, Msg: streamError(err, stream).Error()}
		}
		files = append(files, File{Name: rest, Body: body})
	}
	// Read to the end of the gzip member, so that its CRC-32 is checked: only the
	// zeros that pad a tar record (tar writes 10 KiB records) may follow the end blocks.
	stream.zeros = 0
	after, err := io.Copy(io.Discard, stream)
	if err != nil {
		return "", nil, streamError(err, stream)
	}
	if after != stream.zeros {
		return "", nil, &Error{Msg: fmt.Sprintf("%d bytes after the tar stream's end blocks, not all zero padding: refused", after)}
	}
	// Nothing may follow the gzip member: not a second member, not a byte.
	if head, _ := src.Peek(2); len(head) > 0 {
		what := "trailing bytes"
		if bytes.Equal(head, []byte{0x1f, 0x8b}) {
			what = "a second gzip member"
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(src, 1<<20))
		size := fmt.Sprintf("%d bytes", n)
		if n == 1<<20 {
			size = "1 MiB or more"
		}
		return "", nil, &Error{Msg: fmt.Sprintf("%s after the first gzip member (%s): an archive is one gzip member and nothing after it: refused", what, size)}
	}
	if folder == "" {
		return "", nil, &Error{Msg: "empty archive: no folder in it"}
	}
	return folder, files, nil
}

// ReadFile reads the archive at path with Read. A path that is no regular file (a
// FIFO, a device, or a link to one) is refused before it is opened for reading.
func ReadFile(path string, lim Limits) (folder string, files []File, err error) {
	f, _, err := regular.Open(path, regular.FollowLinks)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	folder, files, err = Read(f, lim)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", path, err)
	}
	return folder, files, nil
}

// Bytes is Write into memory.
func Bytes(folder string, files []File, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	if err := Write(&buf, folder, files, mtime); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// kindProblem refuses every entry but a regular file or a folder.
func kindProblem(hdr *tar.Header) string {
	switch hdr.Typeflag {
	case tar.TypeReg, '\x00': // '\x00': the pre-POSIX regular file
		return ""
	case tar.TypeDir:
		return ""
	case tar.TypeSymlink:
		return fmt.Sprintf("a symbolic link (to %s): refused", quote(hdr.Linkname))
	case tar.TypeLink:
		return fmt.Sprintf("a hard link (to %s): refused", quote(hdr.Linkname))
	case tar.TypeChar, tar.TypeBlock:
		return "a device: refused"
	case tar.TypeFifo:
		return "a FIFO: refused"
	}
	return fmt.Sprintf("entry type %q is not a regular file: refused", string(hdr.Typeflag))
}

// Mode bits a tar header may carry beside the permissions: the file's type, which some
// writers repeat in the mode field.
const (
	modeTypeRegular = 0o100000
	modeTypeFolder  = 0o040000
)

// ownerModeProblem refuses an entry whose owner or mode is not the kit's: tar xzf run
// as root applies both, so a setuid, setgid or sticky bit, a world-writable file or
// folder, or another owner (by number or by name, which GNU tar prefers when the name
// exists on the host) would come out of the archive with it. The kit writes exactly
// 0644 files and a 0755 folder owned by 0:0 without names (Write); `tar
// --owner=0 --group=0` writes the same with the name root.
func ownerModeProblem(hdr *tar.Header) string {
	want, typeBit := int64(FileMode), int64(modeTypeRegular)
	if hdr.Typeflag == tar.TypeDir {
		want, typeBit = FolderMode, modeTypeFolder
	}
	switch perm := hdr.Mode & 0o7777; {
	case perm&0o7000 != 0:
		return fmt.Sprintf("mode %#o has a setuid, setgid or sticky bit: refused (the kit writes %#o)", hdr.Mode, want)
	case perm != want || hdr.Mode&^0o7777 != 0 && hdr.Mode&^0o7777 != typeBit:
		return fmt.Sprintf("mode %#o: refused (the kit writes %#o for a %s)", hdr.Mode, want, map[bool]string{true: "folder", false: "file"}[hdr.Typeflag == tar.TypeDir])
	case hdr.Uid != 0 || hdr.Gid != 0:
		return fmt.Sprintf("owner %d:%d: refused (the kit writes 0:0)", hdr.Uid, hdr.Gid)
	case hdr.Uname != "" && hdr.Uname != "root" || hdr.Gname != "" && hdr.Gname != "root":
		return fmt.Sprintf("owner named %s:%s: refused (the kit writes 0:0 without names)", quote(hdr.Uname), quote(hdr.Gname))
	}
	return ""
}

// checkPath refuses every name that is not folder/ or folder/file spelled plainly.
func checkPath(name, clean string, isDir bool) error {
	switch {
	case name == "" || clean == "":
		return errors.New("an empty name")
	case strings.HasPrefix(name, "/"):
		return errors.New("an absolute path: refused")
	case strings.Contains(name, `\`):
		return errors.New("a backslash in the name: refused")
	}
	for _, part := range strings.Split(clean, "/") {
		if part == ".." {
			return errors.New("`..` in the path: refused")
		}
	}
	if path.Clean(clean) != clean || strings.HasSuffix(name, "/") && !isDir {
		return errors.New("not a clean path (`.`, `//` or a trailing slash): refused")
	}
	for _, part := range strings.Split(clean, "/") {
		if err := checkName(part); err != nil {
			return err
		}
	}
	return nil
}

// checkName accepts a plain file or folder name.
func checkName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("%s is not a plain name", quote(name))
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%s is not a plain name (it has a slash)", quote(name))
	case len(name) > 255:
		return fmt.Errorf("%s is longer than 255 bytes", quote(name))
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return fmt.Errorf("%s has a control character or invalid UTF-8", quote(name))
		}
	}
	return nil
}

// capped passes at most left bytes through, then fails: it stops a decompression bomb
// before the tar reader has seen the bytes, whatever the headers claim.
// It also counts what it passed (read) and how many of the last bytes passed were
// zeros (zeros, since the caller last reset it).
type capped struct {
	r     io.Reader
	left  int64
	hit   bool
	read  int64
	zeros int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		c.hit = true
		return 0, errTooBig
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	c.read += int64(n)
	// Trailing zeros of what has passed: a run of zeros continues or restarts.
	if z := trailingZeros(p[:n]); z == n {
		c.zeros += int64(n)
	} else {
		c.zeros = int64(z)
	}
	return n, err
}

// blockSize is a tar block's: an archive ends with two zero blocks.
const blockSize = 512

func trailingZeros(p []byte) int {
	i := len(p)
	for i > 0 && p[i-1] == 0 {
		i--
	}
	return len(p) - i
}

var errTooBig = errors.New("the archive expands to more than its limits allow")

func streamError(err error, c *capped) error {
	switch {
	case c.hit || errors.Is(err, errTooBig):
		return &Error{Msg: errTooBig.Error()}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Msg: "truncated: the archive ends in the middle of an entry"}
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		return &Error{Msg: "corrupt gzip stream: " + err.Error()}
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Msg: "not a valid tar stream: " + err.Error()}
}
