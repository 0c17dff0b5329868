package chunk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/codec"
)

// TestEncodeFiltered: filtering a block writes the same bytes as
// decoding every column, picking the kept rows and encoding them with
// the decoder's hints (EncodeAs), whichever columns the caller decoded
// already, for plain columns with and without nulls, compressed or not,
// dictionaries and every other type.
func TestEncodeFiltered(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	keptAsStored := 0
	defer func() {
		if !t.Failed() && keptAsStored < 20 {
			t.Errorf("a column kept as stored %d times in all, want many", keptAsStored)
		}
	}()
	for round := range 60 {
		n := 1 + rng.IntN(2000)
		b := Block{Rows: n, Columns: []Column{
			{Name: "i", Type: Int64, Ints: make([]int64, n)},
			{Name: "f", Type: Float64, Floats: make([]float64, n), Valid: make([]bool, n)},
			{Name: "s", Type: String},
			{Name: "b", Type: Bool, Bools: make([]bool, n)},
			{Name: "body", Type: Bytes},
			{Name: "key", Type: String},
			{Name: "opt", Type: Bytes, Valid: make([]bool, n)},
			{Name: "t", Type: Int64, Ints: make([]int64, n)}, // regular: delta-of-delta
			// Rarely present (sparse nulls): kept as stored when no
			// present row is left out (keepValues).
			{Name: "rare", Type: Int64, Ints: make([]int64, n), Valid: make([]bool, n)},
			{Name: "rtag", Type: String, Valid: make([]bool, n)},
			{Name: "rb", Type: Bool, Bools: make([]bool, n), Valid: make([]bool, n)},
			{Name: "rkey", Type: String, Valid: make([]bool, n)},
			// Random bits: raw floats, filtered from the body.
			{Name: "noise", Type: Float64, Floats: make([]float64, n)},
		}}
		const firstRare, lastRare = 8, 11
		for r := range n {
			b.Columns[0].Ints[r] = int64(r*1000) + rng.Int64N(7)
			b.Columns[1].Floats[r] = float64(rng.IntN(10000)) / 100
			b.Columns[1].Valid[r] = r%7 != 0
			b.Columns[2].Dict.AppendString(fmt.Sprintf("host%02d", r%9))
			b.Columns[2].Codes = append(b.Columns[2].Codes, int32(r))
			b.Columns[3].Bools[r] = r%3 == 0
			body := make([]byte, 48)
			for k := range body {
				body[k] = byte(rng.Uint32())
			}
			b.Columns[4].Strs = append(b.Columns[4].Strs, string(body)) // plain
			b.Columns[5].Strs = append(b.Columns[5].Strs, fmt.Sprintf("obj%08d", r))
			b.Columns[6].Strs = append(b.Columns[6].Strs, fmt.Sprintf("v%d", r)) // plain, nulls
			b.Columns[6].Valid[r] = r%4 != 1
			b.Columns[7].Ints[r] = 1_700_000_000_000_000_000 + int64(r)*15_000_000_000
			b.Columns[8].Ints[r], b.Columns[8].Valid[r] = rng.Int64N(1000), r%53 == 0
			b.Columns[9].Strs, b.Columns[9].Valid[r] = append(b.Columns[9].Strs, fmt.Sprintf("t%d", r%5)), r%29 == 0
			b.Columns[10].Bools[r], b.Columns[10].Valid[r] = r%62 == 0, r%31 == 0
			b.Columns[11].Strs, b.Columns[11].Valid[r] = append(b.Columns[11].Strs, fmt.Sprintf("key-%06d", r)), r%37 == 0
			b.Columns[12].Floats[r] = rng.NormFloat64()
		}
		present := func(r int) bool {
			for _, c := range b.Columns[firstRare : lastRare+1] {
				if c.Valid[r] {
					return true
				}
			}
			return false
		}
		// Every other round keeps every row where a rare column is
		// present: those columns' values stay as they are.
		keepRare := round%4 < 2
		var enc Encoder
		enc.FastZstd = round%2 == 0
		src, err := enc.Append(nil, &b, nil)
		if err != nil {
			t.Fatal(err)
		}
		var keep []int32
		p := rng.Float64()
		for r := range n {
			if rng.Float64() < p || (keepRare && present(r)) {
				keep = append(keep, int32(r))
			}
		}
		if len(keep) == 0 {
			keep = []int32{int32(rng.IntN(n))}
		}
		// Reference: everything decoded, picked, encoded as it was.
		var dec Decoder
		var all Block
		if err := dec.Reset(src); err != nil {
			t.Fatal(err)
		}
		if err := dec.Block(&all); err != nil {
			t.Fatal(err)
		}
		out := Block{Rows: len(keep), Columns: make([]Column, len(all.Columns))}
		hints := make([]Hint, len(all.Columns))
		for i := range all.Columns {
			pick(&out.Columns[i], new(Column), &all.Columns[i], keep)
			hints[i] = dec.Hint(i)
			if hints[i].Encoding == uint8(codec.IntDoD) && all.Columns[i].Type == Int64 && len(keep) < n {
				hints[i].Encoding = uint8(codec.IntDelta) // as EncodeFiltered does
			}
		}
		if n > 2 && dec.Hint(7).Encoding != uint8(codec.IntDoD) {
			t.Fatalf("round %d: the regular column is %v", round, codec.IntEncoding(dec.Hint(7).Encoding))
		}
		want, err := enc.AppendAs(nil, &out, hints)
		if err != nil {
			t.Fatal(err)
		}
		// Filtered, with some columns decoded by the caller.
		var d2 Decoder
		if err := d2.Reset(src); err != nil {
			t.Fatal(err)
		}
		if n > 100 && (!d2.plainNoNulls(4) || d2.plainNoNulls(6) || !d2.plainNoNulls(12) || d2.plainNoNulls(1)) {
			t.Fatalf("round %d: the body and noise columns should be filtered from their bodies, the nullable ones not: %+v %+v %+v %+v",
				round, d2.Info(4), d2.Info(6), d2.Info(12), d2.Info(1))
		}
		have := make([]*Column, d2.NumColumns())
		for i := range have {
			if rng.IntN(3) == 0 {
				have[i] = new(Column)
				if err := d2.Column(i, have[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, buf := range [][]byte{nil, make([]byte, 5, 5+len(src))} {
			got, err := enc.EncodeFiltered(buf, &d2, keep, have)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("round %d: %d of %d rows: filtered block differs", round, len(keep), n)
			}
			// The rare columns the caller did not decode, stored
			// uncompressed, were kept as stored exactly when no present
			// row was left out and a kept row is null.
			for i := firstRare; i <= lastRare; i++ {
				if have[i] != nil || d2.Info(i).Compression != CompressNone {
					continue
				}
				leftOut, keptNull := false, false
				for r, k := 0, 0; r < n; r++ {
					if k < len(keep) && int(keep[k]) == r {
						keptNull = keptNull || !b.Columns[i].Valid[r]
						k++
					} else {
						leftOut = leftOut || b.Columns[i].Valid[r]
					}
				}
				if kept := enc.filt.bodies[i][1] > 0; kept != (!leftOut && keptNull) {
					t.Fatalf("round %d: column %s kept as stored %v, a present row left out %v, a kept row null %v", round, b.Columns[i].Name, kept, leftOut, keptNull)
				}
				if enc.filt.bodies[i][1] > 0 {
					keptAsStored++
				}
			}
		}
		if _, err := enc.EncodeFiltered(nil, &d2, nil, have); err == nil {
			t.Fatal("no rows accepted")
		}
		for _, bad := range [][]int32{{int32(n)}, {-1}, {0, 0}} {
			if _, err := enc.EncodeFiltered(nil, &d2, bad, have); err == nil || !errors.Is(err, ErrBadColumn) {
				t.Fatalf("rows %v of %d: %v", bad, n, err)
			}
		}
		if n > 1 {
			if _, err := enc.EncodeFiltered(nil, &d2, []int32{1, 0}, have); err == nil {
				t.Fatal("descending rows accepted")
			}
		}
		// The regular column with gaps is no larger than delta-of-delta
		// would have stored it, nor much larger than the encoding
		// AppendInts picks.
		if len(keep) < n-1 && len(keep) > 100 {
			var c codec.Encoder
			var got Decoder
			if err := got.Reset(want); err != nil {
				t.Fatal(err)
			}
			if dod := c.AppendIntsAs(nil, out.Columns[7].Ints, codec.IntDoD); got.Info(7).Stored > 1+len(dod) {
				t.Fatalf("round %d: regular column filtered to %d bytes, delta-of-delta %d", round, got.Info(7).Stored, 1+len(dod))
			}
			if best := c.AppendInts(nil, out.Columns[7].Ints); got.Info(7).Stored > 1+len(best)+len(best)/16 {
				t.Fatalf("round %d: regular column filtered to %d bytes, AppendInts picks %v in %d", round, got.Info(7).Stored, codec.IntEncoding(best[0]), 1+len(best))
			}
		}
	}
}

// TestEncodeFilteredRegular: timestamps at a fixed step with every tenth
// row taken out are stored as deltas (1 or 2 steps: a few bits a row),
// not in the delta-of-delta encoding the unfiltered column had.
func TestEncodeFilteredRegular(t *testing.T) {
	const n = DefaultRows
	b := Block{Rows: n, Columns: []Column{{Name: "time", Type: Int64, Ints: make([]int64, n)}}}
	for r := range n {
		b.Columns[0].Ints[r] = 1_700_000_000_000_000_000 + int64(r)*1_000_000
	}
	var enc Encoder
	_, dec := encodeFor(t, &enc, &b, nil)
	var col Column
	if err := dec.Column(0, &col); err != nil {
		t.Fatal(err)
	}
	if h := dec.Hint(0); h.Encoding != uint8(codec.IntDoD) {
		t.Fatalf("regular column encoded %v", codec.IntEncoding(h.Encoding))
	}
	var keep, kept []int64
	var rows []int32
	for r := range n {
		if r%10 != 0 {
			rows = append(rows, int32(r))
			kept = append(kept, col.Ints[r])
		}
	}
	out, err := enc.EncodeFiltered(nil, dec, rows, []*Column{&col})
	if err != nil {
		t.Fatal(err)
	}
	var got Decoder
	if err := got.Reset(out); err != nil {
		t.Fatal(err)
	}
	var gc Column
	if err := got.Column(0, &gc); err != nil {
		t.Fatal(err)
	}
	keep = gc.Ints
	if !slices.Equal(keep, kept) {
		t.Fatal("values differ")
	}
	var c codec.Encoder
	dod := c.AppendIntsAs(nil, kept, codec.IntDoD)
	if stored := got.Info(0).Stored; 5*stored > len(dod) {
		t.Fatalf("filtered column %d bytes (%v), delta-of-delta %d", stored, codec.IntEncoding(got.Hint(0).Encoding), len(dod))
	}
}

// TestScratchAcrossTypes: a Column and an Encoder reused across blocks
// whose column i changes type (a series' payload: ints in one block,
// strings in the next) hold only the new column's values. The encoder's
// scratch once kept the 32 ints of the first block and filtering the
// second, longer one read past them.
func TestScratchAcrossTypes(t *testing.T) {
	ints := Block{Rows: 32, Columns: []Column{{Name: "seq", Type: Int64}, {Name: "v", Type: Int64}}}
	strs := Block{Rows: 100, Columns: []Column{{Name: "seq", Type: Int64}, {Name: "v", Type: String}}}
	for r := range ints.Rows {
		ints.Columns[0].Ints = append(ints.Columns[0].Ints, int64(r))
		ints.Columns[1].Ints = append(ints.Columns[1].Ints, int64(r*r))
	}
	var want []string
	for r := range strs.Rows {
		strs.Columns[0].Ints = append(strs.Columns[0].Ints, int64(r))
		strs.Columns[1].Strs = append(strs.Columns[1].Strs, fmt.Sprint("s", r%7))
	}
	var enc Encoder
	_, d1 := encodeFor(t, &enc, &ints, &Options{Compression: CompressZstd})
	_, d2 := encodeFor(t, &enc, &strs, &Options{Compression: CompressZstd})
	var col Column
	for _, d := range []*Decoder{d1, d2} {
		if err := d.Column(1, &col); err != nil {
			t.Fatal(err)
		}
	}
	if col.Len() != strs.Rows || len(col.Ints) != 0 || len(col.Floats) != 0 || len(col.Bools) != 0 {
		t.Fatalf("string column after an int one: %d rows, %d ints, %d floats, %d bools", col.Len(), len(col.Ints), len(col.Floats), len(col.Bools))
	}
	if err := d1.Column(1, &col); err != nil {
		t.Fatal(err)
	}
	if col.Len() != ints.Rows || len(col.Codes) != 0 || col.Dict.Len() != 0 {
		t.Fatalf("int column after a string one: %d rows, %d codes, %d dictionary entries", col.Len(), len(col.Codes), col.Dict.Len())
	}
	var keep1, keep2 []int32
	for r := range ints.Rows {
		keep1 = append(keep1, int32(r))
	}
	for r := 0; r < strs.Rows; r += 2 {
		keep2 = append(keep2, int32(r))
		want = append(want, strs.Columns[1].Strs[r])
	}
	var filt Encoder
	if _, err := filt.EncodeFiltered(nil, d1, keep1, nil); err != nil {
		t.Fatal(err)
	}
	out, err := filt.EncodeFiltered(nil, d2, keep2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got Decoder
	if err := got.Reset(out); err != nil {
		t.Fatal(err)
	}
	if err := got.Column(1, &col); err != nil {
		t.Fatal(err)
	}
	for r, w := range want {
		if s := string(col.Dict.At(int(col.Codes[r]))); s != w {
			t.Fatalf("row %d: %q, want %q", r, s, w)
		}
	}
}

// TestEncodeFilteredOmitNull: with OmitNull, a column it names that no
// kept row has a value in is left out of the filtered block, whether
// decoded (a float column, a string column, an int column the caller
// decoded) or kept as stored (a column of nulls alone: keepValues); a
// column it names with a kept value, and one it does not name, stay; the
// rest of the block is what it is without OmitNull, and the encoder
// filters the next block as if it had never left a column out.
func TestEncodeFilteredOmitNull(t *testing.T) {
	const n = 400
	b := Block{Rows: n, Columns: []Column{
		{Name: "seq", Type: Int64, Ints: make([]int64, n)},
		{Name: "gone", Type: Float64, Floats: make([]float64, n), Valid: make([]bool, n)}, // only row 7
		{Name: "rare", Type: Int64, Ints: make([]int64, n), Valid: make([]bool, n)},       // rows 7 and 300: sparse
		{Name: "tag", Type: String, Valid: make([]bool, n)},                               // only row 9
		{Name: "named", Type: Int64, Ints: make([]int64, n), Valid: make([]bool, n)},      // only row 7; not omitted
		{Name: "empty", Type: Int64, Ints: make([]int64, n), Valid: make([]bool, n)},      // no row: kept as stored
	}}
	for r := range n {
		b.Columns[0].Ints[r] = int64(r + 1)
		b.Columns[3].Strs = append(b.Columns[3].Strs, "")
	}
	b.Columns[1].Floats[7], b.Columns[1].Valid[7] = 1.5, true
	b.Columns[2].Ints[7], b.Columns[2].Valid[7] = 70, true
	b.Columns[2].Ints[300], b.Columns[2].Valid[300] = 3000, true
	b.Columns[3].Strs[9], b.Columns[3].Valid[9] = "secret", true
	b.Columns[4].Ints[7], b.Columns[4].Valid[7] = 7, true
	var enc Encoder
	_, dec := encodeFor(t, &enc, &b, &Options{NoCompression: true})
	var keep []int32
	for r := range n {
		if r != 7 && r != 9 {
			keep = append(keep, int32(r))
		}
	}
	have := make([]*Column, len(b.Columns))
	have[2] = new(Column) // decoded by the caller
	if err := dec.Column(2, have[2]); err != nil {
		t.Fatal(err)
	}
	names := func(buf []byte) []string {
		var d Decoder
		if err := d.Reset(buf); err != nil {
			t.Fatal(err)
		}
		var out []string
		for i := range d.NumColumns() {
			out = append(out, d.Info(i).Name)
		}
		return out
	}
	plain, err := enc.EncodeFiltered(nil, dec, keep, have)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(plain); !slices.Equal(got, []string{"seq", "gone", "rare", "tag", "named", "empty"}) {
		t.Fatalf("without OmitNull the columns are %v", got)
	}
	enc.OmitNull = func(name string) bool { return name != "seq" && name != "named" }
	omitted, err := enc.EncodeFiltered(nil, dec, keep, have)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(omitted); !slices.Equal(got, []string{"seq", "rare", "named"}) {
		t.Fatalf("with OmitNull the columns are %v, want seq, rare, named", got)
	}
	// The columns kept are as they are without OmitNull.
	var a, o Decoder
	if err := a.Reset(plain); err != nil {
		t.Fatal(err)
	}
	if err := o.Reset(omitted); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"seq", "rare", "named"} {
		var ca, co Column
		if err := a.Column(a.Find(name), &ca); err != nil {
			t.Fatal(err)
		}
		if err := o.Column(o.Find(name), &co); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ca.Ints, co.Ints) || !slices.Equal(ca.Valid, co.Valid) {
			t.Fatalf("column %s differs with OmitNull", name)
		}
	}
	if o.Rows() != len(keep) {
		t.Fatalf("rows %d, want %d", o.Rows(), len(keep))
	}
	// The encoder's scratch columns stay apart for the next block: the
	// same filtering without OmitNull again gives the first bytes.
	enc.OmitNull = nil
	again, err := enc.EncodeFiltered(nil, dec, keep, have)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again, plain) {
		t.Fatal("filtering after an OmitNull block writes other bytes")
	}
}

// TestColumnAscending: decoding tells a front-coded String column whose
// present values strictly increase (keys that grow, with nulls between
// them), and no other column; a column decoded into scratch that held
// one does not keep the flag.
func TestColumnAscending(t *testing.T) {
	const n = 3000
	b := Block{Rows: n, Columns: []Column{
		{Name: "key", Type: String, Valid: make([]bool, n)},
		{Name: "same", Type: String}, // in a dictionary
		{Name: "down", Type: String},
		{Name: "v", Type: Int64},
	}}
	for r := range n {
		b.Columns[0].Strs = append(b.Columns[0].Strs, fmt.Sprintf("obj%08d", r))
		b.Columns[0].Valid[r] = r%5 != 3
		b.Columns[1].Strs = append(b.Columns[1].Strs, fmt.Sprintf("obj%08d", r/2)) // each key twice
		b.Columns[2].Strs = append(b.Columns[2].Strs, fmt.Sprintf("obj%08d", n-r))
		b.Columns[3].Ints = append(b.Columns[3].Ints, int64(r))
	}
	var enc Encoder
	_, d := encodeFor(t, &enc, &b, &Options{Compression: CompressZstd})
	var col Column
	for _, i := range []int{0, 3, 0, 1, 0, 2} { // each after the ascending one
		want := i == 0
		if err := d.Column(i, &col); err != nil {
			t.Fatal(err)
		}
		if (i == 0 || i == 2) && d.Hint(i).Encoding != uint8(codec.StringPrefix) {
			t.Fatalf("column %s is not front coded: %v", b.Columns[i].Name, codec.StringEncoding(d.Hint(i).Encoding))
		}
		if col.Ascending != want {
			t.Fatalf("column %s: Ascending %v, want %v", b.Columns[i].Name, col.Ascending, want)
		}
	}
}

// TestEncodeFilteredRawFloatsCorrupt: a raw float column whose body is
// 8 bytes short (the header moved them to the next column, the block
// resealed) is an error naming the column, not a panic or a block.
func TestEncodeFilteredRawFloatsCorrupt(t *testing.T) {
	const n = 100
	rng := rand.New(rand.NewPCG(5, 5))
	b := Block{Rows: n, Columns: []Column{{Name: "fl", Type: Float64}, {Name: "gx", Type: Int64}}}
	for range n {
		b.Columns[0].Floats = append(b.Columns[0].Floats, rng.NormFloat64())
		b.Columns[1].Ints = append(b.Columns[1].Ints, rng.Int64())
	}
	var enc Encoder
	buf, d := encodeFor(t, &enc, &b, nil)
	if !d.plainNoNulls(0) {
		t.Fatalf("the float column is not raw: %+v", d.Info(0))
	}
	// The caller holds the int column decoded (as compaction holds its
	// record columns): only the float column is read from the block.
	var gx Column
	if err := d.Column(1, &gx); err != nil {
		t.Fatal(err)
	}
	// Each name is followed by its type, compression and stored length.
	shift := func(name string, by int) {
		at := bytes.Index(buf, []byte(name)) + len(name) + 2
		v, k := binary.Uvarint(buf[at:])
		if w := binary.PutUvarint(make([]byte, 10), uint64(int(v)+by)); w != k {
			t.Fatalf("%s: stored length %d changes size", name, v)
		}
		binary.PutUvarint(buf[at:], uint64(int(v)+by))
	}
	shift("fl", -8)
	shift("gx", 8)
	reseal(buf)
	var bad Decoder
	if err := bad.Reset(buf); err != nil {
		t.Fatalf("the resealed block does not open: %v", err)
	}
	keep := []int32{0, 1, 2, 50, 99}
	out, err := enc.EncodeFiltered(nil, &bad, keep, []*Column{nil, &gx})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), `column fl`) || out != nil {
		t.Fatalf("got %d bytes, %v", len(out), err)
	}
}

// TestBadKeep holds badKeep to the row-by-row check: random row lists,
// mostly ascending, with rows out of range, repeated, descending and at
// the int32 extremes put in.
func TestBadKeep(t *testing.T) {
	ref := func(keep []int32, rows int) int {
		for j, r := range keep {
			if r < 0 || int(r) >= rows || (j > 0 && r <= keep[j-1]) {
				return j
			}
		}
		return -1
	}
	rng := rand.New(rand.NewPCG(3, 4))
	odd := []int32{-1, 0, math.MaxInt32, math.MinInt32, 1}
	bad := 0
	for round := range 20000 {
		rows := 1 + rng.IntN(300)
		var keep []int32
		for r := range rows {
			if rng.IntN(3) > 0 {
				keep = append(keep, int32(r))
			}
		}
		if len(keep) == 0 {
			keep = append(keep, int32(rng.IntN(rows)))
		}
		for range rng.IntN(3) {
			j := rng.IntN(len(keep))
			switch rng.IntN(4) {
			case 0:
				keep[j] = odd[rng.IntN(len(odd))]
			case 1:
				keep[j] = int32(rows + rng.IntN(3))
			case 2:
				if j > 0 {
					keep[j] = keep[j-1]
				}
			case 3:
				keep[j] = int32(rng.IntN(rows))
			}
		}
		got, want := badKeep(keep, rows), ref(keep, rows)
		if got != want {
			t.Fatalf("round %d: badKeep(%v, %d) = %d, want %d", round, keep, rows, got, want)
		}
		if want >= 0 {
			bad++
		}
	}
	if bad < 1000 {
		t.Fatalf("only %d bad lists of 20000: the test draws too few", bad)
	}
}

// TestFilterAllocsAcrossTypes: filtering blocks whose columns change
// type in the same place, one after the other, takes no new memory once
// the encoder has seen both: pick keeps each type's arrays for the next
// column of that type.
func TestFilterAllocsAcrossTypes(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what allocates")
	}
	const n = 500
	ints := Block{Rows: n, Columns: []Column{{Name: "seq", Type: Int64}, {Name: "v", Type: Int64}}}
	strs := Block{Rows: n, Columns: []Column{{Name: "seq", Type: Int64}, {Name: "v", Type: String}}}
	for r := range n {
		ints.Columns[0].Ints = append(ints.Columns[0].Ints, int64(r))
		ints.Columns[1].Ints = append(ints.Columns[1].Ints, int64(r*r))
		strs.Columns[0].Ints = append(strs.Columns[0].Ints, int64(r))
		strs.Columns[1].Strs = append(strs.Columns[1].Strs, fmt.Sprint("s", r%7))
	}
	var enc Encoder
	_, d1 := encodeFor(t, &enc, &ints, nil)
	_, d2 := encodeFor(t, &enc, &strs, nil)
	var keep []int32
	for r := 0; r < n; r += 3 {
		keep = append(keep, int32(r))
	}
	var filt Encoder
	var out []byte
	round := func() {
		var err error
		for _, d := range []*Decoder{d1, d2} {
			if out, err = filt.EncodeFiltered(out[:0], d, keep, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	round()
	if a := testing.AllocsPerRun(20, round); a != 0 {
		t.Fatalf("%.1f allocations a round of two blocks", a)
	}
}
