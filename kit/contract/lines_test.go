package contract

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNumberedLineIsThePlansFormat builds line 42 from the format's words, apart from
// the code that writes it.
func TestNumberedLineIsThePlansFormat(t *testing.T) {
	head := "logbench seq=000000000042 "
	head += strings.Repeat("-", 128-len(head)-len(" sum=12345678\n"))
	sum := sha256.Sum256([]byte(head))
	want := head + " sum=" + hex.EncodeToString(sum[:])[:8] + "\n"
	if have := string(NumberedLine(42)); have != want {
		t.Fatalf("line 42:\n%q\nwant\n%q", have, want)
	}
	if len(want) != NumberedLineBytes {
		t.Fatalf("the line has %d bytes", len(want))
	}
}

func TestParseNumberedLineReadsBackEveryNumber(t *testing.T) {
	for _, seq := range []int64{0, 1, 42, 123456789, MaxNumberedSeq} {
		line := NumberedLine(seq)
		if len(line) != NumberedLineBytes {
			t.Fatalf("line %d has %d bytes", seq, len(line))
		}
		if have, ok := ParseNumberedLine(line); !ok || have != seq {
			t.Fatalf("ParseNumberedLine(line %d) = %d, %v", seq, have, ok)
		}
	}
	if have := AppendNumberedLine([]byte("x"), 7); string(have[1:]) != string(NumberedLine(7)) || have[0] != 'x' {
		t.Fatalf("AppendNumberedLine: %q", have)
	}
}

// resummed is line with its bytes before " sum=" changed by edit and the checksum made
// right again: a line whose damage the checksum cannot see.
func resummed(line []byte, edit func(head []byte)) []byte {
	out := slices.Clone(line)
	head := out[:numberedSumFrom]
	edit(head)
	sum := sha256.Sum256(head)
	copy(out[numberedSumFrom+len(numberedSumTag):], hex.EncodeToString(sum[:])[:8])
	return out
}

func corruptedLines() map[string][]byte {
	line := NumberedLine(5)
	flip := func(i int) []byte { l := slices.Clone(line); l[i] ^= 0x01; return l }
	upper := slices.Clone(line)
	copy(upper[numberedSumFrom+5:], bytes.ToUpper(upper[numberedSumFrom+5:numberedBody]))
	return map[string][]byte{
		"a damaged digit":        flip(20),
		"a damaged pad":          flip(60),
		"a damaged sum":          flip(numberedSumFrom + 6),
		"a damaged newline":      flip(numberedBody),
		"a letter for a digit":   resummed(line, func(h []byte) { h[20] = 'a' }),
		"a minus sign":           resummed(line, func(h []byte) { h[13] = '-' }),
		"another prefix":         resummed(line, func(h []byte) { h[0] = 'L' }),
		"another pad":            resummed(line, func(h []byte) { h[70] = '_' }),
		"no space after digits":  resummed(line, func(h []byte) { h[numberedSeqEnd] = '-' }),
		"a short line":           append(slices.Clone(line[:100]), '\n'),
		"a long line":            append(slices.Clone(line[:numberedBody]), []byte("-\n")...),
		"no newline":             line[:numberedBody],
		"an empty line":          []byte("\n"),
		"an upper-case checksum": upper,
	}
}

func TestParseNumberedLineRefusesDamage(t *testing.T) {
	for name, line := range corruptedLines() {
		if name == "an upper-case checksum" && !bytes.ContainsAny(line[numberedSumFrom+5:], "ABCDEF") {
			continue // line 5's checksum has no letter to raise
		}
		if seq, ok := ParseNumberedLine(line); ok {
			t.Errorf("%s: read as line %d: %q", name, seq, line)
		}
	}
}

// accountOf adds the numbered lines seqs in order.
func accountOf(seqs ...int64) *Accountant {
	a := NewAccountant()
	for _, s := range seqs {
		a.Add(NumberedLine(s))
	}
	return a
}

func TestAccountOfHandMadeStreams(t *testing.T) {
	none := []SeqRange{}
	for _, c := range []struct {
		name string
		seqs []int64
		want LineAccount
	}{
		{"nothing", nil, LineAccount{MaxSeq: -1, Missing: none}},
		{"in order", []int64{0, 1, 2, 3}, LineAccount{Received: 4, MaxSeq: 3, Missing: none}},
		{"lost ranges", []int64{0, 1, 2, 5, 6, 9}, LineAccount{Received: 6, MaxSeq: 9, Missing: []SeqRange{{3, 4}, {7, 8}}, MissingRanges: 2}},
		{"lost from the start", []int64{3, 4}, LineAccount{Received: 2, MaxSeq: 4, Missing: []SeqRange{{0, 2}}, MissingRanges: 1}},
		{"duplicates", []int64{0, 1, 1, 2, 0, 2}, LineAccount{Received: 3, Duplicated: 3, MaxSeq: 2, Missing: none}},
		{"a swap", []int64{0, 2, 1, 3}, LineAccount{Received: 4, Reordered: 1, MaxSeq: 3, Missing: none}},
		{"late lines split, shrink and close gaps", []int64{0, 10, 5, 1, 4, 9, 7, 6, 8},
			LineAccount{Received: 9, Reordered: 7, MaxSeq: 10, Missing: []SeqRange{{2, 3}}, MissingRanges: 1}},
		{"a late line then its duplicate", []int64{0, 3, 1, 1}, LineAccount{Received: 3, Reordered: 1, Duplicated: 1, MaxSeq: 3, Missing: []SeqRange{{2, 2}}, MissingRanges: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			have := accountOf(c.seqs...).Account()
			if diff := cmp.Diff(c.want, have); diff != "" {
				t.Fatal(diff)
			}
			if have.MissingLines() != sumRanges(have.Missing) {
				t.Fatalf("MissingLines %d, ranges hold %d", have.MissingLines(), sumRanges(have.Missing))
			}
		})
	}
}

func sumRanges(rs []SeqRange) (n int64) {
	for _, r := range rs {
		n += r.Last - r.First + 1
	}
	return n
}

func TestCorruptedLinesAreCountedAndTheirNumbersMissing(t *testing.T) {
	a := accountOf(0, 1, 2, 3, 4)
	lines := corruptedLines() // each a damaged line 5
	for _, line := range lines {
		a.Add(line)
	}
	a.Add(NumberedLine(6))
	have := a.Account()
	// "no newline" is a whole line to Add, which takes a line with its newline or
	// without; its length is right and it is line 5.
	want := LineAccount{Received: 7, Corrupted: int64(len(lines)) - 1, MaxSeq: 6, Missing: []SeqRange{}}
	if !bytes.ContainsAny(lines["an upper-case checksum"][numberedSumFrom+5:], "ABCDEF") {
		want.Corrupted-- // no letter to raise: line 5 again, a duplicate
		want.Duplicated++
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Fatal(diff)
	}
	b := accountOf(0)
	b.Add(lines["a damaged sum"])
	b.Add(NumberedLine(6))
	if have := b.Account(); have.Corrupted != 1 || have.Received != 2 || !slices.Equal(have.Missing, []SeqRange{{1, 5}}) {
		t.Fatalf("%+v", have)
	}
}

func TestAddTakesALineWithItsNewlineOrWithout(t *testing.T) {
	a := NewAccountant()
	a.Add(NumberedLine(0))
	a.Add(NumberedLine(1)[:numberedBody])
	if have := a.Account(); have.Received != 2 || have.Corrupted != 0 {
		t.Fatalf("%+v", have)
	}
}

func TestAStreamEndingInsideALine(t *testing.T) {
	var stream []byte
	for seq := range int64(4) {
		stream = append(stream, NumberedLine(seq)...)
	}
	stream = append(stream, NumberedLine(4)[:64]...)
	a := NewAccountant()
	a.Write(stream)
	if have := a.Account(); have.Received != 4 || have.Corrupted != 0 || have.PartialBytes != 64 || have.MaxSeq != 3 {
		t.Fatalf("before the end: %+v", have)
	}
	a.Finish()
	if have := a.Account(); have.Received != 4 || have.Corrupted != 1 || have.PartialBytes != 0 || have.Lost(5) != 1 {
		t.Fatalf("after the end: %+v", have)
	}
	// The rest of the line, had it come, completes it.
	b := NewAccountant()
	b.Write(stream)
	b.Write(NumberedLine(4)[64:])
	b.Finish()
	if have := b.Account(); have.Received != 5 || have.Corrupted != 0 || have.PartialBytes != 0 {
		t.Fatalf("completed: %+v", have)
	}
}

func TestAnOverlongLineInAStreamIsOneCorruptedLine(t *testing.T) {
	a := NewAccountant()
	a.Write(NumberedLine(0))
	a.Write(bytes.Repeat([]byte("x"), 300))
	a.Write(bytes.Repeat([]byte("y"), 300))
	a.Write([]byte("\n"))
	a.Write(NumberedLine(1))
	if have := a.Account(); have.Received != 2 || have.Corrupted != 1 {
		t.Fatalf("%+v", have)
	}
}

// TestWriteSeesTheSameLinesWhereverTheChunksEnd: a stream with every kind of trouble,
// fed in chunks of every size from 1 to two lines, accounts as its lines added one by
// one.
func TestWriteSeesTheSameLinesWhereverTheChunksEnd(t *testing.T) {
	var lines [][]byte
	for _, s := range []int64{0, 1, 3, 2, 2, 7, 5} {
		lines = append(lines, NumberedLine(s))
	}
	lines = append(lines, corruptedLines()["a damaged sum"], []byte("short\n"), NumberedLine(8))
	want := NewAccountant()
	for _, l := range lines {
		want.Add(l)
	}
	stream := bytes.Join(lines, nil)
	for size := 1; size <= 2*NumberedLineBytes; size++ {
		a := NewAccountant()
		for p := stream; len(p) > 0; p = p[min(size, len(p)):] {
			a.Write(p[:min(size, len(p))])
		}
		a.Finish()
		if diff := cmp.Diff(want.Account(), a.Account()); diff != "" {
			t.Fatalf("chunks of %d: %s", size, diff)
		}
	}
}

func TestAtMostMaxMissingRangesAreListedAndAllCounted(t *testing.T) {
	a := NewAccountant()
	for seq := int64(0); seq <= 500; seq += 2 {
		a.Add(NumberedLine(seq))
	}
	have := a.Account()
	if have.MissingRanges != 250 || len(have.Missing) != MaxMissingRanges || have.Missing[0] != (SeqRange{1, 1}) || have.Missing[99] != (SeqRange{199, 199}) {
		t.Fatalf("%d ranges, listed %d: %v...", have.MissingRanges, len(have.Missing), have.Missing[:3])
	}
	if have.MissingLines() != 250 || have.Lost(501) != 250 {
		t.Fatalf("missing %d, lost %d", have.MissingLines(), have.Lost(501))
	}
	// Gaps past the listed ones are still known: line 401 fills one, 401 again is a
	// duplicate.
	a.Add(NumberedLine(401))
	a.Add(NumberedLine(401))
	if have := a.Account(); have.MissingRanges != 249 || have.Reordered != 1 || have.Duplicated != 1 {
		t.Fatalf("%+v", have)
	}
}

func TestResetStartsAfterTheHighestLineSeen(t *testing.T) {
	a := accountOf(0, 1, 3, 4)
	a.Write(NumberedLine(5)[:10]) // a line under way when the reset comes
	a.Reset()
	a.Write(NumberedLine(5)[10:])
	for _, s := range []int64{6, 2, 8} {
		a.Add(NumberedLine(s))
	}
	want := LineAccount{FirstSeq: 5, Received: 3, BeforeFirst: 1, MaxSeq: 8, Missing: []SeqRange{{7, 7}}, MissingRanges: 1}
	if diff := cmp.Diff(want, a.Account()); diff != "" {
		t.Fatal(diff)
	}
	if want.Lost(4) != 1 || want.MissingLines() != 1 {
		t.Fatalf("lost %d, missing %d", want.Lost(4), want.MissingLines())
	}
	var zero Accountant
	zero.Reset()
	if have := zero.Account(); have.FirstSeq != 0 || have.MaxSeq != -1 {
		t.Fatalf("a reset of nothing: %+v", have)
	}
}

// TestAccountantAgreesWithASetOfEveryLine: random streams with losses, duplicates and
// reordering, against the plainest account there is, a set of the numbers received.
func TestAccountantAgreesWithASetOfEveryLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(300)
		var seqs []int64
		for s := range int64(n) {
			switch r := rng.IntN(20); {
			case r < 3: // lost
			case r < 4:
				seqs = append(seqs, s, s)
			case r < 6 && len(seqs) > 0:
				i := rng.IntN(len(seqs))
				seqs = slices.Insert(seqs, i, s)
			default:
				seqs = append(seqs, s)
			}
		}
		have := accountOf(seqs...).Account()
		want := LineAccount{MaxSeq: -1}
		seen := map[int64]bool{}
		for _, s := range seqs {
			switch {
			case seen[s]:
				want.Duplicated++
			case s < want.MaxSeq:
				want.Reordered++
			}
			if !seen[s] {
				want.Received++
			}
			seen[s] = true
			want.MaxSeq = max(want.MaxSeq, s)
		}
		var missing []SeqRange
		for s := int64(0); s <= want.MaxSeq; s++ {
			switch {
			case seen[s]:
			case len(missing) > 0 && missing[len(missing)-1].Last == s-1:
				missing[len(missing)-1].Last = s
			default:
				missing = append(missing, SeqRange{s, s})
			}
		}
		want.MissingRanges = int64(len(missing))
		want.Missing = append([]SeqRange{}, missing[:min(len(missing), MaxMissingRanges)]...)
		if diff := cmp.Diff(want, have); diff != "" {
			t.Fatalf("trial %d, %v: %s", trial, seqs, diff)
		}
	}
}

// numberedStream is lines numbered from 0, every lostEvery-th missing (0: none).
func numberedStream(lines, lostEvery int) []byte {
	var b []byte
	for seq := range int64(lines) {
		if lostEvery > 0 && seq%int64(lostEvery) == 0 {
			continue
		}
		b = AppendNumberedLine(b, seq)
	}
	return b
}

// BenchmarkAccountant is the reader's cost per line: the stream in the reader's reads,
// in order or with a line in 10 lost, and one line at a time.
func BenchmarkAccountant(b *testing.B) {
	for _, lost := range []int{0, 10} {
		b.Run(fmt.Sprintf("write-lost-every-%d", lost), func(b *testing.B) {
			stream := numberedStream(1<<14, lost)
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			for b.Loop() {
				a := NewAccountant()
				for p := stream; len(p) > 0; p = p[min(ReaderReadBytes, len(p)):] {
					a.Write(p[:min(ReaderReadBytes, len(p))])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(stream)/NumberedLineBytes), "ns/line")
		})
	}
	b.Run("add", func(b *testing.B) {
		lines := make([][]byte, 1<<14)
		for i := range lines {
			lines[i] = NumberedLine(int64(i))
		}
		a := NewAccountant()
		b.SetBytes(NumberedLineBytes)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i == len(lines) {
				a, i = NewAccountant(), 0
			}
			a.Add(lines[i])
			i++
		}
	})
}

func BenchmarkNumberedLine(b *testing.B) {
	buf := make([]byte, 0, NumberedLineBytes)
	b.ReportAllocs()
	var seq int64
	for b.Loop() {
		buf = AppendNumberedLine(buf[:0], seq)
		seq++
	}
}

// TestALongLineIsTheFormatPadded: a line of n bytes is the same words, its '-' run
// longer, and reads back only at its own length.
func TestALongLineIsTheFormatPadded(t *testing.T) {
	for _, n := range []int{MinNumberedLineBytes, 129, 4096, 16 << 10, MaxNumberedLineBytes} {
		head := "logbench seq=000000000042 "
		head += strings.Repeat("-", n-len(head)-len(" sum=12345678\n"))
		sum := sha256.Sum256([]byte(head))
		want := head + " sum=" + hex.EncodeToString(sum[:])[:8] + "\n"
		line := NumberedLineOf(42, n)
		if string(line) != want {
			t.Fatalf("line 42 of %d bytes:\n%q\nwant\n%q", n, line, want)
		}
		if seq, ok := ParseNumberedLineOf(line, n); !ok || seq != 42 {
			t.Fatalf("%d bytes: ParseNumberedLineOf = %d, %v", n, seq, ok)
		}
		for _, other := range []int{n - 1, n + 1} {
			if _, ok := ParseNumberedLineOf(line, other); ok {
				t.Fatalf("a line of %d bytes read back as one of %d", n, other)
			}
		}
		a := NewAccountantOf(n)
		a.Write(slices.Concat(NumberedLineOf(0, n), NumberedLineOf(1, n)[:n/2]))
		a.Write(NumberedLineOf(1, n)[n/2:])
		a.Write(NumberedLineOf(3, n))
		if n != NumberedLineBytes {
			a.Write(NumberedLine(4)) // a line of another length is damaged
		}
		a.Finish()
		want4 := LineAccount{Received: 3, MaxSeq: 3, Missing: []SeqRange{{2, 2}}, MissingRanges: 1}
		if n != NumberedLineBytes {
			want4.Corrupted = 1
		}
		if diff := cmp.Diff(want4, a.Account()); diff != "" {
			t.Fatalf("%d bytes: %s", n, diff)
		}
	}
	if string(NumberedLineOf(7, NumberedLineBytes)) != string(NumberedLine(7)) || NewAccountantOf(NumberedLineBytes).LineBytes() != NumberedLineBytes || NewAccountant().LineBytes() != NumberedLineBytes {
		t.Fatal("the default length is not NumberedLineBytes")
	}
}

func TestCheckNumberedLineBytes(t *testing.T) {
	for n, ok := range map[int]bool{0: false, 127: false, 128: true, 4096: true, 65536: true, 65537: false} {
		if err := CheckNumberedLineBytes(n); (err == nil) != ok {
			t.Errorf("CheckNumberedLineBytes(%d) = %v", n, err)
		}
	}
	for _, n := range []int{127, 65537} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NumberedLineOf(0, %d) did not panic", n)
				}
			}()
			NumberedLineOf(0, n)
		}()
	}
}
