package debian

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// Caps on what the packages of one build may expand to, declared once. A package is
// trusted no further than its bytes: one signed by a compromised key, or a hostile
// build of it, could be 40 KB that expands to terabytes. The caps are generous for
// real packages: the 333 packages of the kit's three bases together expand to 227 MB
// in 27,000 entries, the largest file is libnode's (47 MB), and dpkg-deb compresses
// with xz -6 (an 8 MiB dictionary).
const (
	// maxExpandedBytes bounds the data.tar streams of one build together, as they
	// come out of the decompressor (headers and padding included).
	maxExpandedBytes = 1 << 30
	// maxFileBytes bounds one file of a package, and the Packages index.
	maxFileBytes = 256 << 20
	// maxEntries bounds the entries of all data.tar streams of one build: each is
	// held in memory (a few hundred bytes) until the tree is written.
	maxEntries = 1 << 18
	// maxWindowBytes bounds the dictionary (xz) or window (zstd) a compressed stream
	// may ask the decompressor to allocate: xz -9's 64 MiB.
	maxWindowBytes = 64 << 20
)

// caps are the limits one tree holds its packages to; tests lower them.
type caps struct {
	expanded, file int64
	entries        int
}

var defaultCaps = caps{expanded: maxExpandedBytes, file: maxFileBytes, entries: maxEntries}

// decompress opens a compressed member of a .deb by its name's suffix. member is
// read twice when it is xz: once through its framing to check the dictionary every
// block asks for (the xz library allocates whatever a block header says, up to
// 4 GiB, before it decodes a byte), then to decode it.
func decompress(name string, member *io.SectionReader) (io.ReadCloser, error) {
	switch {
	case name == "data.tar":
		return io.NopCloser(member), nil
	case name == "data.tar.xz":
		return openXZ(member)
	case name == "data.tar.zst":
		d, err := zstd.NewReader(bufio.NewReaderSize(member, 64<<10), zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxWindow(maxWindowBytes), zstd.WithDecoderMaxMemory(maxWindowBytes))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	case name == "data.tar.gz":
		return gzip.NewReader(bufio.NewReaderSize(member, 64<<10))
	}
	return nil, fmt.Errorf("unknown member %s", cut(name))
}

// openXZ checks the dictionaries of an xz file, then opens it for decoding.
func openXZ(r *io.SectionReader) (io.ReadCloser, error) {
	if err := checkXZWindows(io.NewSectionReader(r, 0, r.Size()), maxWindowBytes); err != nil {
		return nil, err
	}
	// Buffered: the decoder reads its input a byte at a time, and each read of the
	// file would be a system call.
	d, err := xz.NewReader(bufio.NewReaderSize(r, 64<<10))
	if err != nil {
		return nil, err
	}
	return io.NopCloser(d), nil
}

var xzMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}

// xzCheckSize is the size of a block's check by the check type of its stream's flags.
var xzCheckSize = [16]int{0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64}

// checkXZWindows reads the framing of an xz file (streams, blocks, the LZMA2 chunks of
// each block, indexes, padding) without decoding anything, and refuses a block whose
// LZMA2 dictionary is larger than maxDict, or any filter but LZMA2 (the only one the
// decoder has). The chunks' sizes delimit the blocks exactly as the decoder reads
// them, so every block header the decoder will act on is one checked here; the
// checksums are left to the decoder.
func checkXZWindows(r io.Reader, maxDict int64) error {
	br := bufio.NewReader(r)
	for streams := 0; ; streams++ {
		// Stream padding (zero bytes, by fours) may follow a stream.
		for {
			pad, err := br.Peek(4)
			if streams > 0 && len(pad) == 0 && err == io.EOF {
				return nil
			}
			if streams == 0 || !bytes.Equal(pad, []byte{0, 0, 0, 0}) {
				break
			}
			br.Discard(4)
		}
		if err := xzStream(br, maxDict); err != nil {
			return fmt.Errorf("xz stream %d: %w", streams+1, err)
		}
	}
}

// xzStream reads one stream of an xz file: header, blocks, index and footer.
func xzStream(br *bufio.Reader, maxDict int64) error {
	var header [12]byte
	if _, err := io.ReadFull(br, header[:]); err != nil || !bytes.Equal(header[:6], xzMagic) {
		return errors.New("not an xz stream")
	}
	check := xzCheckSize[header[7]&0x0f]
	for block := 1; ; block++ {
		size, err := br.ReadByte()
		if err != nil {
			return unexpected(err)
		}
		if size == 0 {
			return xzIndex(br)
		}
		if err := xzBlock(br, int(size), check, maxDict); err != nil {
			return fmt.Errorf("block %d: %w", block, err)
		}
	}
}

// xzBlock reads a block whose header's first byte, size, is read: the rest of the
// header, the LZMA2 chunks, the padding and the check.
func xzBlock(br *bufio.Reader, size, check int, maxDict int64) error {
	header := make([]byte, (size+1)*4-1)
	if _, err := io.ReadFull(br, header); err != nil {
		return unexpected(err)
	}
	flags := header[0]
	hr := bytes.NewReader(header[1 : len(header)-4])
	if flags&0x40 != 0 { // compressed size
		if _, err := binary.ReadUvarint(hr); err != nil {
			return errors.New("unreadable block header")
		}
	}
	if flags&0x80 != 0 { // uncompressed size
		if _, err := binary.ReadUvarint(hr); err != nil {
			return errors.New("unreadable block header")
		}
	}
	filters := int(flags&0x03) + 1
	for i := range filters {
		id, err1 := binary.ReadUvarint(hr)
		n, err2 := binary.ReadUvarint(hr)
		if err1 != nil || err2 != nil {
			return errors.New("unreadable block header")
		}
		if id != 0x21 || n != 1 || i != filters-1 {
			return fmt.Errorf("filter %#x: only LZMA2 alone is read", id)
		}
		props, err := hr.ReadByte()
		if err != nil {
			return errors.New("unreadable block header")
		}
		dict, err := lzma.DecodeDictCap(props)
		if err != nil {
			return err
		}
		if dict > maxDict {
			return fmt.Errorf("asks for a %d MiB dictionary, more than the %d MiB allowed: refused", dict>>20, maxDict>>20)
		}
	}
	n, err := lzma2Chunks(br)
	if err != nil {
		return err
	}
	// Padding to a multiple of four bytes from the block's start (the header's size
	// is one), then the check.
	pad := (4 - int(n%4)) % 4
	if _, err := br.Discard(pad + check); err != nil {
		return unexpected(err)
	}
	return nil
}

// lzma2Chunks skips the chunks of an LZMA2 stream up to its end marker and returns
// how many bytes they took.
func lzma2Chunks(br *bufio.Reader) (int64, error) {
	var total int64
	var b [5]byte
	for {
		control, err := br.ReadByte()
		if err != nil {
			return total, unexpected(err)
		}
		total++
		var skip, hdr int
		switch {
		case control == 0:
			return total, nil
		case control == 1 || control == 2: // stored: 2 bytes of size
			hdr = 2
		case control >= 0x80: // compressed: 2+2 bytes of sizes, a properties byte
			hdr = 4
			if control >= 0xc0 {
				hdr = 5
			}
		default:
			return total, fmt.Errorf("LZMA2 chunk %#x: unknown", control)
		}
		if _, err := io.ReadFull(br, b[:hdr]); err != nil {
			return total, unexpected(err)
		}
		if hdr == 2 {
			skip = int(binary.BigEndian.Uint16(b[0:2])) + 1
		} else {
			skip = int(binary.BigEndian.Uint16(b[2:4])) + 1
		}
		if _, err := br.Discard(skip); err != nil {
			return total, unexpected(err)
		}
		total += int64(hdr + skip)
	}
}

// xzIndex reads a stream's index, whose indicator byte is read, and its footer.
func xzIndex(br *bufio.Reader) error {
	cr := &countingByteReader{r: br, n: 1}
	records, err := binary.ReadUvarint(cr)
	if err != nil {
		return errors.New("unreadable index")
	}
	for range records * 2 {
		if _, err := binary.ReadUvarint(cr); err != nil {
			return errors.New("unreadable index")
		}
	}
	pad := (4 - cr.n%4) % 4
	if _, err := br.Discard(int(pad) + 4 + 12); err != nil { // padding, CRC32, footer
		return unexpected(err)
	}
	return nil
}

type countingByteReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingByteReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
