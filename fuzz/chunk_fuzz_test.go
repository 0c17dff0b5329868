package fuzz

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/codec"
)

var chunkOptions = []*chunk.Options{
	nil,
	{NoCompression: true},
	{Compression: chunk.CompressS2},
	{Compression: chunk.CompressZstd},
}

func optName(o *chunk.Options) string {
	if o == nil {
		return "default"
	}
	return fmt.Sprintf("%+v", *o)
}

// tile repeats vals to n entries; with no vals it uses zero.
func tile[T any](vals []T, n int, zero T) []T {
	out := make([]T, n)
	for i := range out {
		if len(vals) == 0 {
			out[i] = zero
		} else {
			out[i] = vals[i%len(vals)]
		}
	}
	return out
}

func validFromBytes(mode byte, bits []byte, rows int) []bool {
	if mode%5 == 0 {
		return nil
	}
	v := make([]bool, rows)
	for i := range v {
		switch mode % 5 {
		case 1: // all present, given explicitly
			v[i] = true
		case 2: // all null
			v[i] = false
		case 3:
			if len(bits) == 0 {
				v[i] = i%2 == 0
			} else {
				b := bits[(i/8)%len(bits)]
				v[i] = b>>(i%8)&1 == 1
			}
		case 4: // one in a period missing, or (high bit) present
			v[i] = (i%(2+int(mode>>3)%15) != 0) != (mode&0x80 != 0)
		}
	}
	return v
}

// split cuts b into k nearly equal parts.
func split(b []byte, k int) [][]byte {
	out := make([][]byte, k)
	for i := range out {
		out[i] = b[i*len(b)/k : (i+1)*len(b)/k]
	}
	return out
}

// blockFromBytes builds a small block with a few typed nullable columns.
func blockFromBytes(data []byte) *chunk.Block {
	s := stream{b: data}
	rows := 1 + int(s.u16())%600
	var modes [6]byte
	for i := range modes {
		modes[i] = s.byte()
	}
	parts := split(data[min(s.i, len(data)):], 5)

	ts := make([]int64, rows)
	for i := range ts {
		var jit int64
		if len(parts[0]) > 0 {
			jit = int64(parts[0][i%len(parts[0])] % 3)
		}
		ts[i] = 1_700_000_000_000_000_000 + int64(i)*15e9 + jit*1e6
	}
	strs := tile(stringsFromBytes(parts[3], rows), rows, "")
	// The Bytes column is given as Dict plus Codes, the dictionary often
	// larger than the present rows (TestChunkDictLargerThanPresentRows).
	words := stringsFromBytes(parts[4], 64)
	var dict codec.Strings
	seen := map[string]bool{}
	for _, w := range append([]string{"first"}, words...) {
		if !seen[w] {
			seen[w] = true
			dict.AppendString(w)
		}
	}
	codes := make([]int32, rows)
	for i := range codes {
		if len(parts[4]) > 0 {
			codes[i] = int32(int(parts[4][i%len(parts[4])]) % dict.Len())
		}
	}
	bytesCol := chunk.Column{Name: "bytes", Type: chunk.Bytes, Dict: dict, Codes: codes, Valid: validFromBytes(modes[4], parts[4], rows)}
	return &chunk.Block{Rows: rows, Columns: []chunk.Column{
		{Name: "time", Type: chunk.Int64, Ints: ts},
		{Name: "int", Type: chunk.Int64, Ints: tile(intsFromBytes(parts[0], rows), rows, 0), Valid: validFromBytes(modes[0], parts[1], rows)},
		{Name: "float", Type: chunk.Float64, Floats: tile(floatsFromBytes(parts[1], rows), rows, 0), Valid: validFromBytes(modes[1], parts[2], rows)},
		{Name: "bool", Type: chunk.Bool, Bools: tile(boolsFromBytes(parts[2], rows), rows, false), Valid: validFromBytes(modes[2], parts[3], rows)},
		{Name: "str", Type: chunk.String, Strs: strs, Valid: validFromBytes(modes[3], parts[0], rows)},
		bytesCol,
	}}
}

// compareColumn compares a decoded column with the original: nulls, values
// of present rows (floats by bits), and zero values in null rows.
func compareColumn(t *testing.T, what string, want, got *chunk.Column, rows int) {
	t.Helper()
	if got.Name != want.Name || got.Type != want.Type {
		t.Fatalf("%s: column %q/%v decoded as %q/%v", what, want.Name, want.Type, got.Name, got.Type)
	}
	if got.Len() != rows {
		t.Fatalf("%s: column %q has %d rows, want %d", what, want.Name, got.Len(), rows)
	}
	for i := range rows {
		if want.IsNull(i) != got.IsNull(i) {
			t.Fatalf("%s: column %q row %d: null %v, want %v", what, want.Name, i, got.IsNull(i), want.IsNull(i))
		}
		if want.IsNull(i) {
			continue
		}
		switch want.Type {
		case chunk.Int64:
			if got.Ints[i] != want.Ints[i] {
				t.Fatalf("%s: column %q row %d: %d, want %d", what, want.Name, i, got.Ints[i], want.Ints[i])
			}
		case chunk.Float64:
			if math.Float64bits(got.Floats[i]) != math.Float64bits(want.Floats[i]) {
				t.Fatalf("%s: column %q row %d: %#016x, want %#016x", what, want.Name, i, math.Float64bits(got.Floats[i]), math.Float64bits(want.Floats[i]))
			}
		case chunk.Bool:
			if got.Bools[i] != want.Bools[i] {
				t.Fatalf("%s: column %q row %d: %v, want %v", what, want.Name, i, got.Bools[i], want.Bools[i])
			}
		default:
			if got.StringAt(i) != want.StringAt(i) {
				t.Fatalf("%s: column %q row %d: %q, want %q", what, want.Name, i, got.StringAt(i), want.StringAt(i))
			}
		}
	}
}

// checkDecodedColumn checks what a decoded column must satisfy on its own.
func checkDecodedColumn(t *testing.T, col *chunk.Column, rows int) {
	t.Helper()
	if col.Len() != rows {
		t.Fatalf("column %q has %d values for %d rows", col.Name, col.Len(), rows)
	}
	if col.Valid != nil && len(col.Valid) != rows {
		t.Fatalf("column %q has %d validity flags for %d rows", col.Name, len(col.Valid), rows)
	}
	for i := range rows {
		null := col.IsNull(i)
		switch col.Type {
		case chunk.Int64:
			if null && col.Ints[i] != 0 {
				t.Fatalf("column %q null row %d holds %d", col.Name, i, col.Ints[i])
			}
		case chunk.Float64:
			if null && math.Float64bits(col.Floats[i]) != 0 {
				t.Fatalf("column %q null row %d holds %v", col.Name, i, col.Floats[i])
			}
		case chunk.Bool:
			if null && col.Bools[i] {
				t.Fatalf("column %q null row %d holds true", col.Name, i)
			}
		case chunk.String, chunk.Bytes:
			c := col.Codes[i]
			if null {
				if c != 0 {
					t.Fatalf("column %q null row %d holds code %d", col.Name, i, c)
				}
			} else if c < 0 || int(c) >= col.Dict.Len() {
				t.Fatalf("column %q row %d: code %d outside dictionary of %d", col.Name, i, c, col.Dict.Len())
			}
		default:
			t.Fatalf("column %q decoded with type %v", col.Name, col.Type)
		}
	}
}

// checkChunkError is checkCorrupt for block errors: offsets inside a
// decompressed column body count from that body, so they are bounded by
// MaxColumnBytes instead of the block.
func checkChunkError(t *testing.T, what string, err error, src []byte) {
	t.Helper()
	var ce *codec.CorruptionError
	if errors.As(err, &ce) && strings.Contains(ce.Section, "-decompressed)") {
		if !errors.Is(err, chunk.ErrCorrupt) || ce.Offset < 0 || ce.Offset > chunk.MaxColumnBytes {
			t.Fatalf("%s: bad error %v (offset %d)", what, err, ce.Offset)
		}
		return
	}
	checkCorrupt(t, what, err, src)
}

var warmBlock []byte

func init() {
	var enc chunk.Encoder
	var err error
	prog := make([]byte, 400)
	for i := range prog {
		prog[i] = byte(i*7 + i>>3)
	}
	prog[0], prog[1] = 0xff, 0x01
	warmBlock, err = enc.Append(nil, blockFromBytes(prog), &chunk.Options{Compression: chunk.CompressZstd})
	if err != nil {
		panic(err)
	}
}

// decodeBlock feeds data to Reset and Block and checks the outcome, and
// to ResetHeader (no CRC check: the bodies are whatever the input holds)
// and each column's decoding, which may fail but must not panic.
func decodeBlock(t *testing.T, data []byte) {
	orig := slices.Clone(data)
	var dec chunk.Decoder
	if err := dec.ResetHeader(data, len(data)); err != nil {
		checkChunkError(t, "ResetHeader", err, data)
	} else {
		var c chunk.Column
		for i := range dec.NumColumns() {
			if err := dec.Column(i, &c); err != nil {
				checkChunkError(t, "Column after ResetHeader", err, data)
			}
		}
	}
	err := dec.Reset(data)
	if err != nil {
		checkChunkError(t, "Reset", err, data)
		return
	}
	rows := dec.Rows()
	if rows < 1 || rows > chunk.MaxRows || dec.NumColumns() > chunk.MaxColumns {
		t.Fatalf("Reset accepted %d rows, %d columns", rows, dec.NumColumns())
	}
	for i := range dec.NumColumns() {
		info := dec.Info(i)
		if info.Offset < 0 || info.Stored < 0 || info.Offset+info.Stored > len(data)-4 || info.Raw > chunk.MaxColumnBytes {
			t.Fatalf("column %d: %+v in a %d-byte block", i, info, len(data))
		}
		if j := dec.Find(info.Name); j < 0 || j > i {
			t.Fatalf("Find(%q) = %d, column %d has that name", info.Name, j, i)
		}
	}
	var b chunk.Block
	err = dec.Block(&b)
	if !bytes.Equal(data, orig) {
		t.Fatal("decoder wrote into src")
	}
	// A warm decoder (used on another block first) into a used Block must
	// agree.
	var warm chunk.Decoder
	var b2 chunk.Block
	if err := warm.Reset(warmBlock); err != nil {
		t.Fatal(err)
	}
	if err := warm.Block(&b2); err != nil {
		t.Fatal(err)
	}
	if err := warm.Reset(data); err != nil {
		t.Fatalf("second Reset: %v", err)
	}
	// Only success must agree: error messages may differ, since zstd
	// decodes into the decoder's buffer up to its capacity, which a warm
	// decoder has more of ("frame decodes to 76 bytes, descriptor says 2"
	// rather than "output bigger than max block size").
	err2 := warm.Block(&b2)
	if (err == nil) != (err2 == nil) {
		t.Fatalf("warm decoder: %v, fresh: %v", err2, err)
	}
	if err2 != nil {
		checkChunkError(t, "Block (warm)", err2, data)
	}
	if err != nil {
		checkChunkError(t, "Block", err, data)
		return
	}
	if b.Rows != rows || len(b.Columns) != dec.NumColumns() {
		t.Fatalf("Block: %d rows %d columns, header %d rows %d columns", b.Rows, len(b.Columns), rows, dec.NumColumns())
	}
	for i := range b.Columns {
		col := &b.Columns[i]
		checkDecodedColumn(t, col, rows)
		compareColumn(t, "warm decoder", col, &b2.Columns[i], rows)
		var one chunk.Column
		if err := dec.Column(i, &one); err != nil {
			t.Fatalf("Column(%d) after a successful Block: %v", i, err)
		}
		compareColumn(t, "Column alone", col, &one, rows)
	}
	// The decoded block re-encodes (when its names are valid) to itself.
	var enc chunk.Encoder
	buf, err := enc.Append(nil, &b, nil)
	if err != nil {
		if !errors.Is(err, chunk.ErrBadColumn) {
			t.Fatalf("re-encoding a decoded block: %v", err)
		}
		if namesValid(&b) {
			t.Fatalf("re-encoding a decoded block with valid names: %v", err)
		}
		return
	}
	var b3 chunk.Block
	if err := dec.Reset(buf); err != nil {
		t.Fatalf("re-encoded block: %v", err)
	}
	if err := dec.Block(&b3); err != nil {
		t.Fatalf("re-encoded block: %v", err)
	}
	for i := range b.Columns {
		compareColumn(t, "re-encoded", &b.Columns[i], &b3.Columns[i], rows)
	}
}

func namesValid(b *chunk.Block) bool {
	seen := map[string]bool{}
	for i := range b.Columns {
		n := b.Columns[i].Name
		if n == "" || len(n) > chunk.MaxNameLen || seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

func reseal(body []byte) []byte {
	out := append(slices.Clip(body), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(out[len(body):], chunk.Checksum(body))
	return out
}

func chunkSeeds() map[string][]seed {
	out := map[string][]seed{}
	add := func(target, name string, args ...any) {
		out[target] = append(out[target], seed{name, args})
	}
	progs := map[string][]byte{
		"one-row":  {0, 0},
		"no-nulls": {99, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
		"nulls":    {200, 0, 3, 4, 3, 3, 4, 0, 2, 2 | 1<<3, 5 | 31<<3, 1, 2 | 6<<3, 3, 100, 0xa5, 0x5a, 1, 0x85, 2 << 2, 'h', '1', 1, 0, 2 | 9<<2, 3 << 2, 'a', 'b', 'c', 7},
		"all-null": {44, 1, 2, 2, 2, 2, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		"specials": func() []byte {
			b := []byte{130, 0, 1, 3, 1, 3, 1, 0}
			for i := range specialFloats {
				b = append(b, byte(1|i<<3))
			}
			return b
		}(),
	}
	var enc chunk.Encoder
	for _, name := range sortedKeys(progs) {
		p := progs[name]
		add("FuzzChunkRoundTrip", name, p)
		for k, o := range chunkOptions {
			buf, err := enc.Append(nil, blockFromBytes(p), o)
			if err != nil {
				panic(err)
			}
			if k == 0 || name == "nulls" {
				add("FuzzChunkDecode", fmt.Sprintf("%s-%d", name, k), buf)
				add("FuzzChunkDecodeResealed", fmt.Sprintf("%s-%d", name, k), buf[:len(buf)-4])
			}
		}
	}
	// Sparse bools (block version 3): an optional field's null bitmap
	// and a bool column's values.
	sparse := &chunk.Block{Rows: 300, Columns: []chunk.Column{
		{Name: "tag", Type: chunk.String, Strs: make([]string, 300), Valid: make([]bool, 300)},
		{Name: "flag", Type: chunk.Bool, Bools: make([]bool, 300)},
	}}
	sparse.Columns[0].Strs[9], sparse.Columns[0].Valid[9] = "x", true
	sparse.Columns[0].Strs[200], sparse.Columns[0].Valid[200] = "yz", true
	sparse.Columns[1].Bools[42] = true
	if buf, err := enc.Append(nil, sparse, nil); err != nil || chunk.Version(buf[0]) != chunk.V3 {
		panic(fmt.Sprintf("sparse seed: %v", err))
	} else {
		add("FuzzChunkDecode", "sparse", buf)
		add("FuzzChunkDecodeResealed", "sparse", buf[:len(buf)-4])
	}
	add("FuzzChunkRoundTrip", "sparse-nulls", []byte{200, 0, 4, 4, 4, 4, 4, 0, 4 | 0x80 | 14<<3})
	for _, target := range []string{"FuzzChunkDecode", "FuzzChunkDecodeResealed", "FuzzChunkRoundTrip"} {
		add(target, "empty", []byte{})
		add(target, "single-byte", []byte{1})
	}
	out["FuzzChunkFilter"] = slices.Clone(out["FuzzChunkRoundTrip"])
	return out
}

// FuzzChunkDecode feeds arbitrary bytes to Reset and Block. Most inputs
// fail the CRC; the seeds carry valid blocks for the fuzzer to mutate.
func FuzzChunkDecode(f *testing.F) {
	addSeeds(f, chunkSeeds()["FuzzChunkDecode"])
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeBlock(t, data)
	})
}

// FuzzChunkDecodeResealed appends a valid CRC to the input, so that damage
// reaches the header parser and the column decoders.
func FuzzChunkDecodeResealed(f *testing.F) {
	addSeeds(f, chunkSeeds()["FuzzChunkDecodeResealed"])
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeBlock(t, reseal(body))
	})
}

// FuzzChunkRoundTrip builds a block from the input and round-trips it with
// every Options variant.
func FuzzChunkRoundTrip(f *testing.F) {
	addSeeds(f, chunkSeeds()["FuzzChunkRoundTrip"])
	f.Fuzz(func(t *testing.T, data []byte) {
		b := blockFromBytes(data)
		var enc chunk.Encoder
		var dec chunk.Decoder
		var got chunk.Block
		for _, o := range chunkOptions {
			pre := withPrefix()
			buf, err := enc.Append(pre, b, o)
			if err != nil {
				t.Fatalf("%s: %v", optName(o), err)
			}
			if !bytes.Equal(buf[:len(prefix)], prefix) {
				t.Fatalf("%s: Append changed dst's prefix", optName(o))
			}
			blk := buf[len(prefix):]
			if err := dec.Reset(blk); err != nil {
				t.Fatalf("%s: Reset: %v", optName(o), err)
			}
			if dec.Rows() != b.Rows || dec.NumColumns() != len(b.Columns) {
				t.Fatalf("%s: %d rows %d columns", optName(o), dec.Rows(), dec.NumColumns())
			}
			if err := dec.Block(&got); err != nil {
				t.Fatalf("%s: Block: %v", optName(o), err)
			}
			for i := range b.Columns {
				if o != nil && o.NoCompression && dec.Info(i).Compression != chunk.CompressNone {
					t.Fatalf("%s: column %q compressed with %v", optName(o), b.Columns[i].Name, dec.Info(i).Compression)
				}
				compareColumn(t, optName(o), &b.Columns[i], &got.Columns[i], b.Rows)
				checkDecodedColumn(t, &got.Columns[i], b.Rows)
			}
		}
	})
}

// FuzzChunkFilter builds a block from the input, encodes it with every
// Options variant and filters it with EncodeFiltered to rows drawn from a
// hash of the input (at a density it draws, or every row where one
// column is present and some others: what keeps a rare field's values as
// stored), with some columns decoded by the caller: the filtered block
// decodes to exactly the kept rows, and filtering it again keeps them.
func FuzzChunkFilter(f *testing.F) {
	addSeeds(f, chunkSeeds()["FuzzChunkFilter"])
	f.Fuzz(func(t *testing.T, data []byte) {
		b := blockFromBytes(data)
		h := fnv.New64a()
		h.Write(data)
		rng := rand.New(rand.NewPCG(h.Sum64(), 1))
		var keep []int32
		p, whole := rng.Float64(), rng.IntN(len(b.Columns)+1)
		for r := range b.Rows {
			if rng.Float64() < p || (whole < len(b.Columns) && !b.Columns[whole].IsNull(r)) {
				keep = append(keep, int32(r))
			}
		}
		if len(keep) == 0 {
			keep = []int32{int32(rng.IntN(b.Rows))}
		}
		want := make([]chunk.Column, len(b.Columns))
		for i := range b.Columns {
			want[i] = pickRows(&b.Columns[i], keep)
		}
		var enc chunk.Encoder
		var dec, fdec chunk.Decoder
		var got chunk.Block
		for _, o := range chunkOptions {
			src, err := enc.Append(nil, b, o)
			if err != nil {
				t.Fatalf("%s: %v", optName(o), err)
			}
			if err := dec.Reset(src); err != nil {
				t.Fatalf("%s: Reset: %v", optName(o), err)
			}
			have := make([]*chunk.Column, len(b.Columns))
			for i := range have {
				if rng.IntN(3) == 0 {
					have[i] = new(chunk.Column)
					if err := dec.Column(i, have[i]); err != nil {
						t.Fatalf("%s: Column: %v", optName(o), err)
					}
				}
			}
			enc.FastZstd = rng.IntN(2) == 0
			// OmitNull, half the time, for the columns of names of even
			// length: those no kept row has a value in leave the block.
			enc.OmitNull = nil
			kept := want
			if rng.IntN(2) == 0 {
				enc.OmitNull = func(name string) bool { return len(name)%2 == 0 }
				kept = nil
				for i := range want {
					if !enc.OmitNull(want[i].Name) || slices.Contains(want[i].Valid, true) || want[i].Valid == nil {
						kept = append(kept, want[i])
					}
				}
			}
			out, err := enc.EncodeFiltered(nil, &dec, keep, have)
			if err != nil {
				t.Fatalf("%s: EncodeFiltered: %v", optName(o), err)
			}
			for round := range 2 {
				if err := fdec.Reset(out); err != nil {
					t.Fatalf("%s: filtered block: Reset: %v", optName(o), err)
				}
				if err := fdec.Block(&got); err != nil {
					t.Fatalf("%s: filtered block: %v", optName(o), err)
				}
				if got.Rows != len(keep) {
					t.Fatalf("%s: %d rows filtered to %d, want %d", optName(o), b.Rows, got.Rows, len(keep))
				}
				if len(got.Columns) != len(kept) {
					t.Fatalf("%s: %d columns filtered, want %d (round %d)", optName(o), len(got.Columns), len(kept), round)
				}
				for i := range kept {
					compareColumn(t, fmt.Sprintf("%s: filtered (round %d)", optName(o), round), &kept[i], &got.Columns[i], len(keep))
					checkDecodedColumn(t, &got.Columns[i], len(keep))
					noUnusedEntries(t, fmt.Sprintf("%s: filtered (round %d)", optName(o), round), &got.Columns[i])
				}
				// Every row kept again: the same rows.
				all := make([]int32, len(keep))
				for r := range all {
					all[r] = int32(r)
				}
				if out, err = enc.EncodeFiltered(nil, &fdec, all, nil); err != nil {
					t.Fatalf("%s: filtering the filtered block: %v", optName(o), err)
				}
			}
		}
	})
}

// noUnusedEntries fails t when a decoded dictionary column c has an
// entry no present row uses: a filtered block keeps nothing of the rows
// it left out.
func noUnusedEntries(t *testing.T, what string, c *chunk.Column) {
	t.Helper()
	if c.Strs != nil || c.Dict.Len() == 0 {
		return
	}
	used := make([]bool, c.Dict.Len())
	for r, code := range c.Codes {
		if !c.IsNull(r) {
			used[code] = true
		}
	}
	if i := slices.Index(used, false); i >= 0 {
		t.Fatalf("%s: column %s: dictionary entry %d (%q) of %d used by no row", what, c.Name, i, c.Dict.At(i), len(used))
	}
}

// pickRows returns the rows keep of c, strings as Strs.
func pickRows(c *chunk.Column, keep []int32) chunk.Column {
	out := chunk.Column{Name: c.Name, Type: c.Type}
	for _, r := range keep {
		if c.Valid != nil {
			out.Valid = append(out.Valid, c.Valid[r])
		}
		switch c.Type {
		case chunk.Int64:
			out.Ints = append(out.Ints, c.Ints[r])
		case chunk.Float64:
			out.Floats = append(out.Floats, c.Floats[r])
		case chunk.Bool:
			out.Bools = append(out.Bools, c.Bools[r])
		default:
			out.Strs = append(out.Strs, c.StringAt(int(r)))
		}
	}
	return out
}

// TestChunkDictLargerThanPresentRows: a String or Bytes column given as
// Dict plus Codes whose dictionary has more entries than present rows (a
// shared dictionary, or nulls hiding some of the codes) is written with
// the entries present rows use only (codec.AppendDict): the decoder caps
// a dictionary at the number of present rows, and the block decodes.
func TestChunkDictLargerThanPresentRows(t *testing.T) {
	var dict codec.Strings
	for _, s := range []string{"a", "b", "c", "d"} {
		dict.AppendString(s)
	}
	cases := []struct {
		name string
		col  chunk.Column
		rows int
	}{
		{"2 rows, 4 entries", chunk.Column{Name: "s", Type: chunk.String, Dict: dict, Codes: []int32{3, 0}}, 2},
		{"4 rows, 2 present, 4 entries", chunk.Column{Name: "s", Type: chunk.Bytes, Dict: dict, Codes: []int32{0, 1, 2, 3}, Valid: []bool{true, false, true, false}}, 4},
		{"3 rows, all null", chunk.Column{Name: "s", Type: chunk.String, Dict: dict, Codes: []int32{0, 0, 0}, Valid: []bool{false, false, false}}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &chunk.Block{Rows: tc.rows, Columns: []chunk.Column{tc.col}}
			for _, o := range chunkOptions {
				var enc chunk.Encoder
				buf, err := enc.Append(nil, b, o)
				if err != nil {
					t.Fatalf("%s: Append: %v", optName(o), err)
				}
				var dec chunk.Decoder
				var got chunk.Block
				if err := dec.Reset(buf); err != nil {
					t.Fatalf("%s: Reset: %v", optName(o), err)
				}
				if err := dec.Block(&got); err != nil {
					t.Fatalf("%s: block written by Append does not decode: %v\nblock: %x", optName(o), err, buf)
				}
				compareColumn(t, optName(o), &tc.col, &got.Columns[0], tc.rows)
			}
		})
	}
}

// TestChunkDecodedAllNullStringColumnReencodes: decoding an all-null
// String column yields code 0 in every row and an empty dictionary ("zero
// when decoded"); Append must ignore the codes of null rows so that the
// decoded block can be written back. Regression for the block kept in
// testdata/crashers/chunk-all-null-string.hex.
func TestChunkDecodedAllNullStringColumnReencodes(t *testing.T) {
	b := &chunk.Block{Rows: 3, Columns: []chunk.Column{
		{Name: "s", Type: chunk.String, Strs: []string{"x", "y", "z"}, Valid: []bool{false, false, false}},
	}}
	var enc chunk.Encoder
	built, err := enc.Append(nil, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	const crasher = "testdata/crashers/chunk-all-null-string.hex"
	if *writeCorpus {
		if err := os.MkdirAll(filepath.Dir(crasher), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(crasher, []byte(hex.EncodeToString(built)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := os.ReadFile(crasher)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := hex.DecodeString(strings.TrimSpace(string(stored)))
	if err != nil {
		t.Fatal(err)
	}
	for name, buf := range map[string][]byte{"built": built, "testdata": saved} {
		var dec chunk.Decoder
		var got chunk.Block
		if err := dec.Reset(buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := dec.Block(&got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		compareColumn(t, name, &b.Columns[0], &got.Columns[0], 3)
		checkDecodedColumn(t, &got.Columns[0], 3)
		if _, err := enc.Append(nil, &got, nil); err != nil {
			t.Errorf("%s: re-encoding the decoded block: %v", name, err)
		}
	}
}
