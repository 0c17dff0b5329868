package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// Constants of the portable roaring serialization (RoaringFormatSpec),
// part of the format, do not change.
const (
	cookieNoRun       = 12346 // 32-bit bitmap without run containers
	cookieRun         = 12347 // low 16 bits of a cookie with run containers
	noOffsetThreshold = 4     // with runs, offsets only from this many containers
	arrayMaxCard      = 4096  // larger containers without the run flag are bitmaps
	bitmapBytes       = 8192  // 2^16 bits
	maxContainers     = 1 << 16
)

// AppendBitmap appends the portable serialization of bm to dst. Call
// bm.RunOptimize first to store runs of seqs compactly.
func AppendBitmap(dst []byte, bm *roaring64.Bitmap) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	buf.Grow(int(bm.GetSerializedSizeInBytes()))
	if _, err := bm.WriteTo(buf); err != nil {
		return dst, fmt.Errorf("index: serialize bitmap: %w", err)
	}
	return buf.Bytes(), nil
}

// DecodeBitmap decodes a bitmap payload written by AppendBitmap. The
// payload is walked and checked whole (counts against the bytes left,
// keys and values in strictly increasing order, cardinalities, run
// bounds, offsets) before the roaring library reads it, so corrupt bytes
// give a *codec.CorruptionError naming path and the offset in the payload,
// never a panic, and memory stays a small multiple of len(p).
func DecodeBitmap(p []byte, path string) (*roaring64.Bitmap, error) {
	empty, err := checkPortable64(p, path)
	if err != nil {
		return nil, err
	}
	if len(empty) > 0 {
		p = dropBuckets(p, empty)
	}
	bm := roaring64.New()
	if err := bm.UnmarshalBinary(p); err != nil {
		// Unreachable for bytes checkPortable64 accepted.
		return nil, corrupt(path, "bitmap", 0, "roaring: %v", err)
	}
	return bm, nil
}

// walker reads a payload with bounds checks; the first error sticks.
type walker struct {
	p    []byte
	off  int
	path string
	err  error
}

func (w *walker) fail(section, format string, args ...any) {
	if w.err == nil {
		w.err = corrupt(w.path, section, w.off, format, args...)
	}
}

func (w *walker) need(n int, section string) bool {
	if w.err != nil {
		return false
	}
	if n < 0 || n > len(w.p)-w.off {
		w.fail(section, "needs %d bytes, %d left", n, len(w.p)-w.off)
		return false
	}
	return true
}

func (w *walker) take(n int, section string) []byte {
	if !w.need(n, section) {
		return nil
	}
	b := w.p[w.off : w.off+n]
	w.off += n
	return b
}

func (w *walker) u16(section string) uint16 {
	if b := w.take(2, section); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (w *walker) u32(section string) uint32 {
	if b := w.take(4, section); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (w *walker) u64(section string) uint64 {
	if b := w.take(8, section); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// checkPortable64 checks a roaring64 portable serialization: a <8b>
// count of buckets, then per bucket a <4b> high key (strictly
// increasing) and a 32-bit portable bitmap; nothing after. It returns
// the byte ranges of buckets whose bitmap is empty, which the roaring
// library would keep as (invalid) empty containers.
func checkPortable64(p []byte, path string) (empty [][2]int, err error) {
	w := &walker{p: p, path: path}
	n := w.u64("bitmap bucket count")
	// A bucket takes at least 12 bytes: its key and an empty bitmap.
	if w.err == nil && n > uint64(len(p)-w.off)/12 {
		w.off -= 8
		w.fail("bitmap bucket count", "%d buckets cannot fit in %d bytes", n, len(p)-8)
	}
	var prev uint32
	for i := uint64(0); i < n && w.err == nil; i++ {
		start := w.off
		key := w.u32("bitmap bucket key")
		if w.err == nil && i > 0 && key <= prev {
			w.off -= 4
			w.fail("bitmap bucket key", "bucket %d key %d not above the previous %d", i, key, prev)
		}
		prev = key
		if checkPortable32(w, fmt.Sprintf("bitmap bucket %d", i)) == 0 && w.err == nil {
			empty = append(empty, [2]int{start, w.off})
		}
	}
	if w.err == nil && w.off != len(p) {
		w.fail("bitmap", "%d trailing bytes", len(p)-w.off)
	}
	return empty, w.err
}

// dropBuckets returns a copy of the checked payload p without the byte
// ranges of empty buckets, its count adjusted.
func dropBuckets(p []byte, empty [][2]int) []byte {
	out := make([]byte, 8, len(p))
	binary.LittleEndian.PutUint64(out, binary.LittleEndian.Uint64(p)-uint64(len(empty)))
	at := 8
	for _, r := range empty {
		out = append(out, p[at:r[0]]...)
		at = r[1]
	}
	return append(out, p[at:]...)
}

// checkPortable32 checks one 32-bit portable bitmap at w.off and returns
// its container count.
func checkPortable32(w *walker, sec string) int {
	start := w.off
	cookie := w.u32(sec + " cookie")
	var size int
	var runFlags []byte
	switch {
	case w.err != nil:
		return 0
	case cookie&0xFFFF == cookieRun:
		size = int(cookie>>16) + 1
		runFlags = w.take((size+7)/8, sec+" run flags")
	case cookie == cookieNoRun:
		s := w.u32(sec + " container count")
		if w.err == nil && s > maxContainers {
			w.off -= 4
			w.fail(sec+" container count", "%d containers, at most %d", s, maxContainers)
		}
		size = int(s)
	default:
		w.off -= 4
		w.fail(sec+" cookie", "cookie %#08x is neither %d nor %d|(n-1)<<16", cookie, cookieNoRun, cookieRun)
	}
	desc := w.take(4*size, sec+" descriptive header")
	var offsets []byte
	if runFlags == nil || size >= noOffsetThreshold {
		offsets = w.take(4*size, sec+" offset header")
	}
	if w.err != nil {
		return 0
	}
	for i := 0; i < size && w.err == nil; i++ {
		key := binary.LittleEndian.Uint16(desc[4*i:])
		if i > 0 && key <= binary.LittleEndian.Uint16(desc[4*i-4:]) {
			w.off = start // the header, not the container
			w.fail(sec+" descriptive header", "container %d key %d not above the previous", i, key)
			return size
		}
		if offsets != nil {
			if o := binary.LittleEndian.Uint32(offsets[4*i:]); int64(o) != int64(w.off-start) {
				w.fail(sec+" offset header", "container %d offset %d, it starts at %d", i, o, w.off-start)
				return size
			}
		}
		card := int(binary.LittleEndian.Uint16(desc[4*i+2:])) + 1
		csec := fmt.Sprintf("%s container %d", sec, i)
		switch {
		case runFlags != nil && runFlags[i/8]&(1<<(i%8)) != 0:
			checkRuns(w, csec, card)
		case card <= arrayMaxCard:
			checkArray(w, csec, card)
		default:
			checkBitmap(w, csec, card)
		}
	}
	return size
}

func checkRuns(w *walker, sec string, card int) {
	at := w.off
	nr := int(w.u16(sec + " run count"))
	runs := w.take(4*nr, sec+" runs")
	if w.err != nil {
		return
	}
	if nr == 0 {
		w.off = at
		w.fail(sec, "run container with no run")
		return
	}
	sum, next := 0, 0 // next: the lowest value the next run may start at
	for k := range nr {
		s := int(binary.LittleEndian.Uint16(runs[4*k:]))
		l := int(binary.LittleEndian.Uint16(runs[4*k+2:]))
		// Runs must not overlap nor touch (roaring merges touching runs).
		if (k > 0 && s <= next) || s+l > 0xFFFF {
			w.off = at + 2 + 4*k
			w.fail(sec+" runs", "run %d [%d, %d] overlaps or touches the previous or leaves 0..65535", k, s, s+l)
			return
		}
		sum += l + 1
		next = s + l + 1
	}
	if sum != card {
		w.off = at
		w.fail(sec, "runs hold %d values, the header says %d", sum, card)
	}
}

func checkArray(w *walker, sec string, card int) {
	at := w.off
	vals := w.take(2*card, sec+" array")
	if w.err != nil {
		return
	}
	for k := 1; k < card; k++ {
		if binary.LittleEndian.Uint16(vals[2*k:]) <= binary.LittleEndian.Uint16(vals[2*k-2:]) {
			w.off = at + 2*k
			w.fail(sec+" array", "value %d not above the previous", k)
			return
		}
	}
}

func checkBitmap(w *walker, sec string, card int) {
	at := w.off
	b := w.take(bitmapBytes, sec+" bitmap")
	if w.err != nil {
		return
	}
	n := 0
	for k := 0; k < bitmapBytes; k += 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(b[k:]))
	}
	if n != card {
		w.off = at
		w.fail(sec+" bitmap", "%d bits set, the header says %d", n, card)
	}
}
