package ingest

import (
	"bytes"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// shortReader returns at most a random 1..max bytes per Read, as a
// bufio.Reader wrapping a generator does.
type shortReader struct {
	r   io.Reader
	rng *rand.Rand
	max int
}

func (s *shortReader) Read(p []byte) (int, error) {
	if n := 1 + s.rng.IntN(s.max); n < len(p) {
		p = p[:n]
	}
	return s.r.Read(p)
}

// TestChunkerNoRegrowth: with short reads and lines far shorter than a
// chunk, chunk buffers are allocated once at their final size and never
// regrown: a regrowth leaves the old array as garbage, at random points
// of a long import (the peak heap then varied from run to run).
func TestChunkerNoRegrowth(t *testing.T) {
	const size = 64 << 10
	var sb strings.Builder
	for i := range 40000 {
		sb.WriteString(`{"t":` + strconv.Itoa(i) + `,"pad":"` + strings.Repeat("x", i%300) + "\"}\n")
	}
	in := sb.String()
	c := NewChunker(&shortReader{strings.NewReader(in), rand.New(rand.NewPCG(1, 2)), 9000}, JSONLines, size, 1<<20, 0, 0)
	bufs := make([][]byte, 3) // recycled in turn, as the parallel import does
	caps := make([]int, 3)
	var got bytes.Buffer
	for i := 0; ; i++ {
		k := i % 3
		chunk, _, _, err := c.Next(bufs[k])
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got.Write(chunk)
		if caps[k] != 0 && cap(chunk) != caps[k] {
			t.Fatalf("chunk %d: buffer regrown from %d to %d bytes", i, caps[k], cap(chunk))
		}
		if cap(chunk) > size+size/4+size/16 {
			t.Fatalf("chunk %d: buffer of %d bytes for chunks of %d", i, cap(chunk), size)
		}
		if len(chunk) > size {
			t.Fatalf("chunk %d of %d bytes, size %d", i, len(chunk), size)
		}
		bufs[k], caps[k] = chunk, cap(chunk)
	}
	if got.String() != in {
		t.Fatal("chunks do not add up to the input")
	}
}

// TestBatchReserve: once a parser has filled a batch, the next batches
// it fills are sized up front: filling a fresh one allocates about its
// final size once, not the doubling series of a growing slice.
func TestBatchReserve(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	var sb strings.Builder
	for i := range 20000 {
		sb.WriteString(`{"t":` + strconv.Itoa(i) + `,"host":"h` + strconv.Itoa(i%7) + `","id":"k` + strconv.Itoa(i) +
			`","v":` + strconv.Itoa(i%100) + `.5,"n":` + strconv.Itoa(i) + `,"msg":"payload ` + strconv.Itoa(i%97) + "\"}\n")
	}
	p, err := NewParser(strings.NewReader(sb.String()), Options{Format: JSONLines, BatchRows: 4096,
		Mapping: mapping(t, "time=t", "series=host", "key=id")})
	if err != nil {
		t.Fatal(err)
	}
	var first Batch
	if err := p.Fill(&first); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	var b Batch
	if err := p.Fill(&b); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&ms)
	alloc := ms.TotalAlloc - before
	// what the batch holds, by capacity
	held := cap(b.Time)*8 + cap(b.Series)*8 + cap(b.Key)*8 + cap(b.Op) + cap(b.Arena)
	for _, c := range b.Cols {
		held += cap(c.Valid) + cap(c.Ints)*8 + cap(c.Floats)*8 + cap(c.Bools) + cap(c.Strs)*8
	}
	t.Logf("second batch: %d rows, %d bytes allocated, %d held", b.Rows, alloc, held)
	if b.Rows != first.Rows {
		t.Fatalf("rows %d, first %d", b.Rows, first.Rows)
	}
	if alloc > uint64(held)+uint64(held)/4 {
		t.Fatalf("filling a batch allocated %d bytes for %d bytes of buffers: regrowth", alloc, held)
	}
}
