package seg

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

// segRegions writes a sealed segment of 4 blocks and returns its bytes,
// its blocks and the byte ranges of its regions.
func segRegions(t *testing.T) ([]byte, []testBlock, map[string][2]int64) {
	mem := vfs.NewMem()
	blocks := makeBlocks(t, 100, 4)
	writeSegment(t, mem, "k.seg", blocks, true)
	data := fileBytes(t, mem, "k.seg")
	r, err := Open(mem, "k.seg")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bm := r.Blocks()
	ft, err := decodeFooter(data[len(data)-footerLen:], "k.seg", int64(len(data)-footerLen), bm[0].Offset, CurrentVersion)
	if err != nil {
		t.Fatal(err)
	}
	return data, blocks, map[string][2]int64{
		"header":       {0, bm[0].Offset},
		"frame header": {bm[1].Offset, bm[1].Offset + FrameHeaderLen},
		"block":        {bm[2].Offset + FrameHeaderLen, bm[2].End()},
		"index":        {ft.indexOff, ft.indexOff + ft.indexLen},
		"bloom":        {ft.bloomOff, ft.bloomOff + ft.bloomLen},
		"footer":       {int64(len(data) - footerLen), int64(len(data))},
	}
}

// TestCorruptSealed flips every bit position of one byte at a time in
// each region of a sealed segment: the error is a *codec.CorruptionError
// naming the file, the region and an offset inside it, and blocks outside
// the damage stay readable.
func TestCorruptSealed(t *testing.T) {
	data, blocks, regions := segRegions(t)
	for _, tc := range []struct {
		region, section string
		// where the damage shows: at Open, at Verify, or at ReadBlock of
		// block bad (the others must stay readable).
		at  string
		bad int
	}{
		{"header", "segment header", "open", -1},
		{"frame header", "block 1 frame header", "verify", -1},
		{"block", "block 2", "read", 2},
		{"index", "index", "open", -1},
		{"bloom", "bloom", "open", -1},
		{"footer", "footer", "open", -1},
	} {
		t.Run(tc.region, func(t *testing.T) {
			lo, hi := regions[tc.region][0], regions[tc.region][1]
			for off := lo; off < hi; off++ {
				for _, mask := range []byte{0x01, 0x80, 0xff} {
					checkFlip(t, data, blocks, off, mask, tc.section, tc.at, tc.bad, lo, hi)
				}
			}
		})
	}
}

func checkFlip(t *testing.T, data []byte, blocks []testBlock, off int64, mask byte, section, at string, bad int, lo, hi int64) {
	t.Helper()
	mem := vfs.NewMem()
	flipped := append([]byte(nil), data...)
	flipped[off] ^= mask
	putFile(t, mem, "k.seg", flipped)
	ctx := fmt.Sprintf("byte %d ^ %#x", off, mask)
	r, err := Open(mem, "k.seg")
	if at == "open" {
		if err == nil {
			r.Close()
			t.Fatalf("%s: Open succeeded", ctx)
		}
		wantCorrupt(t, err, "k.seg", section, lo, hi)
		return
	}
	if err != nil {
		t.Fatalf("%s: Open: %v", ctx, err)
	}
	defer r.Close()
	if !r.Sealed() {
		t.Fatalf("%s: opened unsealed", ctx)
	}
	if bad < 0 {
		checkBlocks(t, r, blocks)
	} else {
		_, err := r.ReadBlock(bad, nil)
		wantCorrupt(t, err, "k.seg", section, lo, lo+1)
		for i := range blocks {
			if i == bad {
				continue
			}
			if _, err := r.ReadBlock(i, nil); err != nil {
				t.Fatalf("%s: block %d: %v", ctx, i, err)
			}
		}
	}
	err = r.Verify()
	if err == nil {
		t.Fatalf("%s: Verify found nothing", ctx)
	}
	wantCorrupt(t, err, "k.seg", section, lo, hi)
}

// TestCorruptUnsealed damages frames of an unsealed segment: a reader sees
// the frames before the damage when it is in the last frame (a torn
// write) and reports a corrupt block elsewhere; OpenWriter cuts the file
// at the damage and reports it.
func TestCorruptUnsealed(t *testing.T) {
	mem := vfs.NewMem()
	blocks := makeBlocks(t, 100, 4)
	writeSegment(t, mem, "u.seg", blocks, false)
	data := fileBytes(t, mem, "u.seg")
	r, err := Open(mem, "u.seg")
	if err != nil {
		t.Fatal(err)
	}
	bm := r.Blocks()
	r.Close()
	for _, tc := range []struct {
		name    string
		off     int64
		section string
		// readerBlocks: blocks Open lists; readErr: a block ReadBlock
		// reports corrupt (-1: none).
		readerBlocks, readErr int
		keep, dropped         int // blocks OpenWriter keeps; frames it drops
	}{
		{"frame header 1", bm[1].Offset + 9, "block 1 frame header", 1, -1, 1, 0},
		{"frame magic 2", bm[2].Offset, "block 2 frame header", 2, -1, 2, 0},
		{"block 1", bm[1].Offset + FrameHeaderLen + 3, "block 1", 4, 1, 1, 3},
		{"last block", bm[3].End() - 1, "block 3", 3, -1, 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			flipped := append([]byte(nil), data...)
			flipped[tc.off] ^= 0x20
			putFile(t, fsys, "u.seg", flipped)
			r, err := Open(fsys, "u.seg")
			if err != nil {
				t.Fatal(err)
			}
			if n := len(r.Blocks()); n != tc.readerBlocks {
				t.Fatalf("reader lists %d blocks, want %d", n, tc.readerBlocks)
			}
			for i := range tc.readerBlocks {
				_, err := r.ReadBlock(i, nil)
				if i == tc.readErr {
					wantCorrupt(t, err, "u.seg", tc.section, bm[i].Offset+FrameHeaderLen, bm[i].Offset+FrameHeaderLen+1)
				} else if err != nil {
					t.Fatalf("block %d: %v", i, err)
				}
			}
			r.Close()
			w, rec, err := OpenWriter(fsys, "u.seg")
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cut := bm[tc.keep].Offset
			if rec.TruncatedBytes != int64(len(data))-cut || rec.DroppedFrames != tc.dropped {
				t.Fatalf("recovery %+v, want %d bytes and %d frames", rec, int64(len(data))-cut, tc.dropped)
			}
			wantCorrupt(t, rec.Cause, "u.seg", tc.section, cut, bm[tc.keep].End())
			if len(w.Blocks()) != tc.keep || w.Size() != cut {
				t.Fatalf("writer kept %d blocks up to %d", len(w.Blocks()), w.Size())
			}
		})
	}
}

// TestDamagedFooterNotTruncated: OpenWriter must not cut the index off a
// sealed segment whose footer is damaged.
func TestDamagedFooterNotTruncated(t *testing.T) {
	data, _, regions := segRegions(t)
	for _, off := range []int64{regions["footer"][0], regions["footer"][1] - 1} {
		mem := vfs.NewMem()
		flipped := append([]byte(nil), data...)
		flipped[off] ^= 1
		putFile(t, mem, "k.seg", flipped)
		_, _, err := OpenWriter(mem, "k.seg")
		wantCorrupt(t, err, "k.seg", "footer", regions["footer"][0], regions["footer"][1])
		if got := fileBytes(t, mem, "k.seg"); len(got) != len(data) {
			t.Fatalf("file cut to %d bytes", len(got))
		}
	}
}

// TestFooterMagicCoincidence: an unsealed file whose last block's CRC
// happens to read "TSQF" is an unsealed file, not a sealed one with a
// damaged footer.
func TestFooterMagicCoincidence(t *testing.T) {
	block := forgeBlockCRC(t, binary.LittleEndian.Uint32([]byte(footerMagic)))
	mem := vfs.NewMem()
	w, err := Create(mem, "m.seg", "cpu", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(block, BlockMeta{Rows: 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if data := fileBytes(t, mem, "m.seg"); string(data[len(data)-4:]) != footerMagic {
		t.Fatalf("file ends in %q", data[len(data)-4:])
	}
	r, err := Open(mem, "m.seg")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Sealed() || len(r.Blocks()) != 1 {
		t.Fatalf("sealed %v, %d blocks", r.Sealed(), len(r.Blocks()))
	}
	w, rec, err := OpenWriter(mem, "m.seg")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if rec != (Recovery{}) || len(w.Blocks()) != 1 {
		t.Fatalf("recovery %+v, %d blocks", rec, len(w.Blocks()))
	}
}

// forgeBlockCRC returns a valid one-row chunk block whose CRC is want: it
// solves for the 4 bytes of a Bytes value over GF(2), CRC being affine in
// the message bits.
func forgeBlockCRC(t *testing.T, want uint32) []byte {
	marker := []byte{0xa5, 0x5a, 0xc3, 0x3c}
	var enc chunk.Encoder
	block, err := enc.Append(nil, &chunk.Block{Rows: 1, Columns: []chunk.Column{
		{Name: "b", Type: chunk.Bytes, Strs: []string{string(marker)}},
	}}, &chunk.Options{NoCompression: true})
	if err != nil {
		t.Fatal(err)
	}
	p := bytes.Index(block, marker)
	body := block[:len(block)-crcLen]
	clear(body[p : p+4])
	base := checksum(body)
	zero := checksum(make([]byte, len(body)))
	// cols[j]: how bit j of the 4 bytes changes the CRC.
	var cols [32]uint32
	for j := range 32 {
		msg := make([]byte, len(body))
		msg[p+j/8] = 1 << (j % 8)
		cols[j] = checksum(msg) ^ zero
	}
	x := solveGF2(t, cols, want^base)
	binary.LittleEndian.PutUint32(body[p:], x)
	binary.LittleEndian.PutUint32(block[len(body):], checksum(body))
	if got := checksum(body); got != want {
		t.Fatalf("forged CRC %08x, want %08x", got, want)
	}
	return block
}

// solveGF2 returns x with XOR of cols[j] over the set bits j of x == y.
func solveGF2(t *testing.T, cols [32]uint32, y uint32) uint32 {
	// Rows of the augmented system: row i is output bit i.
	var rows [32]uint64 // bits 0..31: coefficients of x; bit 32: y
	for i := range 32 {
		for j := range 32 {
			rows[i] |= uint64(cols[j]>>i&1) << j
		}
		rows[i] |= uint64(y>>i&1) << 32
	}
	for c := range 32 {
		piv := -1
		for r := c; r < 32; r++ {
			if rows[r]>>c&1 == 1 {
				piv = r
				break
			}
		}
		if piv < 0 {
			t.Fatal("singular system")
		}
		rows[c], rows[piv] = rows[piv], rows[c]
		for r := range 32 {
			if r != c && rows[r]>>c&1 == 1 {
				rows[r] ^= rows[c]
			}
		}
	}
	var x uint32
	for i := range 32 {
		x |= uint32(rows[i]>>32&1) << i
	}
	return x
}
