package contract

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
)

// The numbered line is the log-driver experiment's log record: every line the API
// writes carries its own number and a checksum, so that whoever receives the stream
// (the FIFO reader behind a syslog receiver, or the host reading a file driver's lines
// back) can say line by line which were lost, repeated, reordered or damaged.
//
//	logbench seq=000000000042 ----...---- sum=1a2b3c4d\n
//
// exactly N bytes with the newline, N from MinNumberedLineBytes to MaxNumberedLineBytes
// (NumberedLineBytes unless a run asks for longer lines: the '-' run pads the line to
// N); sum is the first 8 hex digits of the SHA-256 of every byte before " sum=". A
// line's length is a run's: the reader checks every line against the one length.
const (
	NumberedLineBytes = 128
	// MinNumberedLineBytes and MaxNumberedLineBytes bound a numbered line's length:
	// the shortest is the default, the longest 64 KiB.
	MinNumberedLineBytes = NumberedLineBytes
	MaxNumberedLineBytes = 64 << 10
	// MaxNumberedSeq is the largest number the line's 12 digits hold.
	MaxNumberedSeq = 999_999_999_999
)

const (
	numberedPrefix = "logbench seq="
	numberedDigits = 12
	numberedSumTag = " sum="
	numberedSumHex = 8
	numberedSeqEnd = len(numberedPrefix) + numberedDigits // the space after the digits
	// numberedFixed are a line's bytes that are not padding: the number and its space,
	// the sum and the newline.
	numberedFixed   = numberedSeqEnd + 1 + len(numberedSumTag) + numberedSumHex + 1
	numberedSumFrom = NumberedLineBytes - 1 - numberedSumHex - len(numberedSumTag) // where " sum=" starts
	numberedBody    = NumberedLineBytes - 1                                        // the line without its newline
)

// numberedPaddingMax is the longest '-' run a line has; a line of n bytes has the
// first n-numberedFixed of it.
var numberedPaddingMax = bytes.Repeat([]byte{'-'}, MaxNumberedLineBytes-numberedFixed)

const lowerHex = "0123456789abcdef"

// CheckNumberedLineBytes refuses a line length the format has no line of.
func CheckNumberedLineBytes(n int) error {
	if n < MinNumberedLineBytes || n > MaxNumberedLineBytes {
		return fmt.Errorf("a numbered line of %d bytes: want %d to %d", n, MinNumberedLineBytes, MaxNumberedLineBytes)
	}
	return nil
}

// NumberedLine returns line seq of NumberedLineBytes, newline included. seq must be in
// [0, MaxNumberedSeq].
func NumberedLine(seq int64) []byte { return NumberedLineOf(seq, NumberedLineBytes) }

// NumberedLineOf returns line seq of n bytes, newline included (CheckNumberedLineBytes).
func NumberedLineOf(seq int64, n int) []byte {
	return AppendNumberedLineOf(make([]byte, 0, n), seq, n)
}

// AppendNumberedLine appends line seq of NumberedLineBytes to dst.
func AppendNumberedLine(dst []byte, seq int64) []byte {
	return AppendNumberedLineOf(dst, seq, NumberedLineBytes)
}

// AppendNumberedLineOf appends line seq of n bytes to dst, for a writer that reuses its
// buffer. It panics when seq has no 12-digit form (the API numbers its lines from 0,
// and a trillion lines is far past any run) or n no line (CheckNumberedLineBytes).
func AppendNumberedLineOf(dst []byte, seq int64, n int) []byte {
	if seq < 0 || seq > MaxNumberedSeq {
		panic(fmt.Sprintf("numbered line %d out of [0, %d]", seq, int64(MaxNumberedSeq)))
	}
	if err := CheckNumberedLineBytes(n); err != nil {
		panic(err.Error())
	}
	start := len(dst)
	dst = append(dst, numberedPrefix...)
	var digits [numberedDigits]byte
	for i, v := numberedDigits-1, seq; i >= 0; i, v = i-1, v/10 {
		digits[i] = byte('0' + v%10)
	}
	dst = append(dst, digits[:]...)
	dst = append(dst, ' ')
	dst = append(dst, numberedPaddingMax[:n-numberedFixed]...)
	sum := sha256.Sum256(dst[start:])
	dst = append(dst, numberedSumTag...)
	for _, b := range sum[:numberedSumHex/2] {
		dst = append(dst, lowerHex[b>>4], lowerHex[b&0x0f])
	}
	return append(dst, '\n')
}

// ParseNumberedLine returns the number of line, which must be exactly one numbered
// line of NumberedLineBytes with its newline; ok is false for anything else (another
// length, a damaged byte, a checksum that does not match).
func ParseNumberedLine(line []byte) (seq int64, ok bool) {
	return ParseNumberedLineOf(line, NumberedLineBytes)
}

// ParseNumberedLineOf is ParseNumberedLine for lines of n bytes.
func ParseNumberedLineOf(line []byte, n int) (seq int64, ok bool) {
	if len(line) != n || line[n-1] != '\n' {
		return 0, false
	}
	return parseNumberedBody(line[:n-1], n)
}

// parseNumberedBody reads a numbered line of n bytes without its newline.
func parseNumberedBody(body []byte, n int) (seq int64, ok bool) {
	sumFrom := n - 1 - numberedSumHex - len(numberedSumTag)
	if n < MinNumberedLineBytes || n > MaxNumberedLineBytes || len(body) != n-1 ||
		string(body[:len(numberedPrefix)]) != numberedPrefix || body[numberedSeqEnd] != ' ' ||
		!bytes.Equal(body[numberedSeqEnd+1:sumFrom], numberedPaddingMax[:n-numberedFixed]) ||
		string(body[sumFrom:sumFrom+len(numberedSumTag)]) != numberedSumTag {
		return 0, false
	}
	for _, c := range body[len(numberedPrefix):numberedSeqEnd] {
		if c < '0' || c > '9' {
			return 0, false
		}
		seq = seq*10 + int64(c-'0')
	}
	sum := sha256.Sum256(body[:sumFrom])
	hex := body[sumFrom+len(numberedSumTag):]
	for i, b := range sum[:numberedSumHex/2] {
		// Lower case only: the line has one spelling.
		if hex[2*i] != lowerHex[b>>4] || hex[2*i+1] != lowerHex[b&0x0f] {
			return 0, false
		}
	}
	return seq, true
}

// SeqRange is the line numbers First to Last, both included.
type SeqRange struct {
	First int64 `json:"first"`
	Last  int64 `json:"last"`
}

// MaxMissingRanges is how many missing ranges a LineAccount lists; MissingRanges
// counts them all.
const MaxMissingRanges = 100

// LineAccount is what a stream of numbered lines held, line by line. Missing lists the
// gaps in [FirstSeq, MaxSeq], lowest first: lines after MaxSeq that were written and
// never came are not the stream's to know (Lost adds them from the writer's count).
type LineAccount struct {
	// FirstSeq is the number the account starts at: 0, or after a reset the number
	// after the highest seen before it.
	FirstSeq int64 `json:"first_seq"`
	// Received counts valid lines, each number once; Duplicated the valid lines whose
	// number had come already; Reordered the valid lines, not duplicates, whose number
	// is below the highest seen when they came (they are in Received too); Corrupted
	// the lines that are not a numbered line (a wrong length, a damaged byte, a
	// checksum that does not match, a stream that ended inside a line).
	Received   int64 `json:"received"`
	Duplicated int64 `json:"duplicated"`
	Reordered  int64 `json:"reordered"`
	Corrupted  int64 `json:"corrupted"`
	// BeforeFirst counts valid lines numbered below FirstSeq: written before the reset,
	// read after it.
	BeforeFirst int64 `json:"before_first"`
	// MaxSeq is the highest number received; FirstSeq-1 when none was.
	MaxSeq        int64      `json:"max_seq"`
	Missing       []SeqRange `json:"missing"`
	MissingRanges int64      `json:"missing_ranges"`
	// PartialBytes are the bytes after the stream's last newline: a line not yet
	// complete, or cut.
	PartialBytes int64 `json:"partial_bytes"`
}

// Lost is how many of written lines never came intact: the writer's count of lines
// since the account's start, less those received.
func (a LineAccount) Lost(written int64) int64 { return written - a.Received }

// MissingLines is how many numbers in [FirstSeq, MaxSeq] never came.
func (a LineAccount) MissingLines() int64 { return a.MaxSeq - a.FirstSeq + 1 - a.Received }

// Accountant keeps a LineAccount of the lines it is given, one by one (Add) or as a
// byte stream (Write). Its zero value is an empty account starting at line 0. It is
// not safe for concurrent use.
//
// It sees every line of a run, tens of thousands a second: a line in order costs its
// checksum and a comparison. It holds every gap (a SeqRange each), not only the ones
// it lists, so that a late line is told from a duplicate however many gaps came
// before it; only a line that arrives late pays a binary search.
type Accountant struct {
	lineBytes   int   // 0: NumberedLineBytes
	first       int64 // FirstSeq
	next        int64 // MaxSeq+1
	received    int64
	duplicated  int64
	reordered   int64
	corrupted   int64
	beforeFirst int64
	missing     []SeqRange // every gap below next, ascending

	// The stream's line not yet ended: its first bytes, up to a line's body, and its
	// length.
	partial    []byte
	partialLen int64
}

// NewAccountant returns an empty account of lines of NumberedLineBytes starting at
// line 0.
func NewAccountant() *Accountant { return &Accountant{} }

// NewAccountantOf returns an empty account of lines of n bytes (CheckNumberedLineBytes)
// starting at line 0: a line of any other length is corrupted.
func NewAccountantOf(n int) *Accountant {
	if err := CheckNumberedLineBytes(n); err != nil {
		panic(err.Error())
	}
	return &Accountant{lineBytes: n}
}

// LineBytes is the length of the lines the account takes.
func (a *Accountant) LineBytes() int {
	if a.lineBytes == 0 {
		return NumberedLineBytes
	}
	return a.lineBytes
}

// Add accounts one line; its newline is optional, as a line scanner strips it.
func (a *Accountant) Add(line []byte) {
	a.addBody(bytes.TrimSuffix(line, []byte{'\n'}))
}

// Write accounts the byte stream p continues: every line it ends, and the start of
// the line it does not end, which the next Write (or Finish) ends. It never fails.
func (a *Accountant) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			a.hold(p)
			break
		}
		if a.partialLen == 0 {
			a.addBody(p[:i])
		} else {
			a.hold(p[:i])
			a.endPartial()
		}
		p = p[i+1:]
	}
	return n, nil
}

// Finish ends the stream: a line it had started and not ended is a corrupted line.
func (a *Accountant) Finish() {
	if a.partialLen > 0 {
		a.corrupted++
		a.partialLen = 0
	}
}

// hold keeps p as more of the line not yet ended; past a line's length it only counts.
func (a *Accountant) hold(p []byte) {
	body := int64(a.LineBytes() - 1)
	if a.partial == nil {
		a.partial = make([]byte, body)
	}
	if a.partialLen < body {
		copy(a.partial[a.partialLen:], p)
	}
	a.partialLen += int64(len(p))
}

func (a *Accountant) endPartial() {
	if a.partialLen > int64(a.LineBytes()-1) {
		a.corrupted++
	} else {
		a.addBody(a.partial[:a.partialLen])
	}
	a.partialLen = 0
}

func (a *Accountant) addBody(body []byte) {
	seq, ok := parseNumberedBody(body, a.LineBytes())
	if !ok {
		a.corrupted++
		return
	}
	switch {
	case seq == a.next: // the usual case: the next line
		a.next++
		a.received++
	case seq > a.next:
		a.missing = append(a.missing, SeqRange{First: a.next, Last: seq - 1})
		a.next = seq + 1
		a.received++
	case seq < a.first:
		a.beforeFirst++
	default:
		a.late(seq)
	}
}

// late accounts a valid line numbered below the highest seen: one that fills a gap,
// or a duplicate.
func (a *Accountant) late(seq int64) {
	i, _ := slices.BinarySearchFunc(a.missing, seq, func(r SeqRange, seq int64) int {
		if r.Last < seq {
			return -1
		}
		return 1
	})
	if i == len(a.missing) || a.missing[i].First > seq {
		a.duplicated++
		return
	}
	a.received++
	a.reordered++
	switch r := &a.missing[i]; {
	case r.First == r.Last:
		a.missing = slices.Delete(a.missing, i, i+1)
	case seq == r.First:
		r.First++
	case seq == r.Last:
		r.Last--
	default:
		rest := SeqRange{First: seq + 1, Last: r.Last}
		r.Last = seq - 1
		a.missing = slices.Insert(a.missing, i+1, rest)
	}
}

// Account returns the account so far, listing at most MaxMissingRanges gaps.
func (a *Accountant) Account() LineAccount {
	return LineAccount{
		FirstSeq:      a.first,
		Received:      a.received,
		Duplicated:    a.duplicated,
		Reordered:     a.reordered,
		Corrupted:     a.corrupted,
		BeforeFirst:   a.beforeFirst,
		MaxSeq:        a.next - 1,
		Missing:       append([]SeqRange{}, a.missing[:min(len(a.missing), MaxMissingRanges)]...),
		MissingRanges: int64(len(a.missing)),
		PartialBytes:  a.partialLen,
	}
}

// Reset starts the account again after the highest line seen so far (the API numbers
// its lines from its start and does not reset them), forgetting the counts and gaps.
// A line the stream has begun stays begun: it ends in the next Write, as a line from
// before the reset.
func (a *Accountant) Reset() {
	a.first = a.next
	a.received, a.duplicated, a.reordered, a.corrupted, a.beforeFirst = 0, 0, 0, 0, 0
	a.missing = nil
}
