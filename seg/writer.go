package seg

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

// Writer appends blocks to a segment file and seals it. It is not safe for
// concurrent use. After a failed write or sync it refuses further work
// (its file holds an unknown tail); Close it and recover with OpenWriter.
type Writer struct {
	fs   vfs.FS
	f    vfs.File
	path string
	hdr  Header

	size   int64       // bytes written: the file's size
	synced int64       // bytes durable as of the last successful Sync
	kicked int64       // bytes whose writeback was started (grew)
	blocks []BlockMeta // blocks[i].End() == blocks[i+1].Offset; last ends at size
	rows   int64       // sum of blocks' rows

	series  map[uint64]struct{} // FNV-1a hashes of the series added
	noBloom bool                // some block's series are unknown: write no filter
	fpRate  float64

	keys []KeySpan // the blocks' key spans told (SetBlockKeys); unknown past its end

	sealed     bool  // the trailer is written; no more blocks
	closed     bool  // Close was called
	err        error // first write or sync failure; sticky
	syncFailed bool  // a Sync failed: bytes past synced may never reach the disk

	dec chunk.Decoder // checks appended blocks
	buf []byte        // frame header and trailer scratch
}

// Create creates the segment file path, which must not exist, writes its
// header, syncs the file and then its directory, so that the empty
// segment survives a crash once Create returns.
func Create(fsys vfs.FS, path string, stream string, generation, firstSeq uint64) (*Writer, error) {
	if err := checkStream(stream); err != nil {
		return nil, fmt.Errorf("seg: create %s: %w", path, err)
	}
	f, err := fsys.CreateNew(path)
	if err != nil {
		return nil, fmt.Errorf("seg: create %s: %w", path, err)
	}
	w := newWriter(fsys, f, path, Header{Version: CurrentVersion, Stream: stream, Generation: generation, FirstSeq: firstSeq})
	if err := w.writeHeader(); err != nil {
		_ = f.Close()
		_ = fsys.Remove(path) // best effort: leave no half-made segment
		return nil, fmt.Errorf("seg: create %s: %w", path, err)
	}
	return w, nil
}

// CreateUnsynced is Create without its two fsyncs: the header is
// written but neither it nor the directory entry is durable yet. The
// caller must Sync the Writer and sync the directory before it appends a
// frame, so that a crash never leaves frames behind a torn header (a
// torn header alone is a torn create, which opens remove).
func CreateUnsynced(fsys vfs.FS, path string, stream string, generation, firstSeq uint64) (*Writer, error) {
	return createUnsynced(fsys, path, stream, generation, firstSeq, fsys.CreateNew)
}

// createUnsynced is CreateUnsynced with the file created by create.
func createUnsynced(fsys vfs.FS, path string, stream string, generation, firstSeq uint64, create func(string) (vfs.File, error)) (*Writer, error) {
	if err := checkStream(stream); err != nil {
		return nil, fmt.Errorf("seg: create %s: %w", path, err)
	}
	f, err := create(path)
	if err != nil {
		return nil, fmt.Errorf("seg: create %s: %w", path, err)
	}
	w := newWriter(fsys, f, path, Header{Version: CurrentVersion, Stream: stream, Generation: generation, FirstSeq: firstSeq})
	if err := w.write(appendHeader(nil, &w.hdr)); err != nil {
		_ = f.Close()
		_ = fsys.Remove(path)
		return nil, fmt.Errorf("seg: create %s: %w", path, err)
	}
	return w, nil
}

// writeHeader writes and syncs the header of a new file, then syncs its
// directory.
func (w *Writer) writeHeader() error {
	hdr := appendHeader(nil, &w.hdr)
	if err := w.write(hdr); err != nil {
		return err
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	w.synced = w.size
	return w.fs.SyncDir(filepath.Dir(w.path))
}

func newWriter(fsys vfs.FS, f vfs.File, path string, hdr Header) *Writer {
	return &Writer{fs: fsys, f: f, path: path, hdr: hdr, series: map[uint64]struct{}{}, fpRate: DefaultBloomFPRate}
}

// write appends b to the file, recording a failure as sticky.
func (w *Writer) write(b []byte) error {
	n, err := w.f.Write(b)
	w.grew(int64(n))
	if err == nil && n < len(b) {
		err = fmt.Errorf("short write of %d of %d bytes", n, len(b))
	}
	if err != nil {
		w.err = err
	}
	return err
}

// writebackStep is how much is written between two requests that the
// system start writing the file back (vfs.StartWriteback), so that a
// Sync after a large write (a sealed rewrite, a roll) waits for the
// last part only.
const writebackStep = 1 << 20

// grew counts n bytes appended to the file and starts the writeback of
// what was written since the last start once that reaches writebackStep.
func (w *Writer) grew(n int64) {
	w.size += n
	if w.size-w.kicked >= writebackStep {
		vfs.StartWriteback(w.f, w.kicked, w.size-w.kicked)
		w.kicked = w.size
	}
}

// check returns why the writer cannot take more work, if it cannot.
func (w *Writer) check(op string) error {
	switch {
	case w.closed:
		return fmt.Errorf("seg: %s %s: %w", op, w.path, ErrClosed)
	case w.err != nil:
		return fmt.Errorf("seg: %s %s: writer failed earlier: %w", op, w.path, w.err)
	case w.sealed && op != "sync":
		return fmt.Errorf("seg: %s %s: %w", op, w.path, ErrSealed)
	}
	return nil
}

// Append appends one frame holding block, a whole chunk block (or nothing,
// for an empty frame of 0 rows). The caller fills meta's Rows and seq and
// time ranges; Append fills Offset, Length and CRC. Blocks must come in
// seq order: meta.MinSeq above the previous block's MaxSeq, the first at
// or above the header's FirstSeq. Append checks the block's CRC and that
// its row count matches meta.Rows, so that recovery never drops a block
// that was written whole. The frame is durable after the next Sync.
func (w *Writer) Append(block []byte, meta BlockMeta) error { return w.append(block, meta, true) }

// AppendChecked is Append for a block whose CRC the caller has just
// checked against its bytes (a chunk.Decoder Reset on them, a block read
// by Reader.ReadBlock) or computed over them (a chunk.Encoder's output):
// its header and row count are checked, its CRC is not computed again.
func (w *Writer) AppendChecked(block []byte, meta BlockMeta) error {
	return w.append(block, meta, false)
}

func (w *Writer) append(block []byte, meta BlockMeta, verify bool) error {
	if err := w.check("append to"); err != nil {
		return err
	}
	if err := w.prepare(block, &meta, verify); err != nil {
		return fmt.Errorf("seg: append to %s: %w", w.path, err)
	}
	w.buf = appendFrameHeader(w.buf[:0], &meta)
	if err := w.write(w.buf); err != nil {
		return fmt.Errorf("seg: append to %s: %w", w.path, err)
	}
	if len(block) > 0 {
		if err := w.write(block); err != nil {
			return fmt.Errorf("seg: append to %s: %w", w.path, err)
		}
	}
	w.blocks = append(w.blocks, meta)
	w.rows += int64(meta.Rows)
	return nil
}

// prepare checks block (its CRC too if verify) and meta and fills meta's
// Offset, Length and CRC.
func (w *Writer) prepare(block []byte, meta *BlockMeta, verify bool) error {
	switch {
	case len(w.blocks) >= MaxBlocks:
		return fmt.Errorf("%w: a segment holds at most %d blocks", ErrLimit, MaxBlocks)
	case len(block) > MaxBlockLen:
		return fmt.Errorf("%w: block of %d bytes, limit %d", ErrLimit, len(block), MaxBlockLen)
	}
	meta.Offset, meta.Length, meta.CRC = w.size, frameHeaderLen+len(block), 0
	if len(block) > 0 {
		var err error
		if verify {
			err = w.dec.Reset(block)
		} else {
			err = w.dec.ResetChecked(block)
		}
		rows := w.dec.Rows()
		w.dec.Release() // drop the reference to block
		if err != nil {
			return fmt.Errorf("%w: %w", ErrBadBlock, err)
		}
		if rows != meta.Rows {
			return fmt.Errorf("%w: block holds %d rows, meta says %d", ErrBadBlock, rows, meta.Rows)
		}
		meta.CRC = binary.LittleEndian.Uint32(block[len(block)-crcLen:])
	}
	p := metaProblem(meta)
	if p == "" {
		p = orderProblem(meta, last(w.blocks), w.hdr.FirstSeq)
	}
	if p != "" {
		return fmt.Errorf("%w: %s", ErrBadBlock, p)
	}
	return nil
}

// Sync makes every appended frame durable: the durability point. It does
// nothing when nothing was written since the last Sync.
func (w *Writer) Sync() error {
	if err := w.check("sync"); err != nil {
		return err
	}
	if w.synced == w.size {
		return nil
	}
	if err := w.f.Sync(); err != nil {
		w.err, w.syncFailed = err, true
		return fmt.Errorf("seg: sync %s: %w", w.path, err)
	}
	w.synced = w.size
	return nil
}

// AddSeries records that some block holds series name, for the sealed
// segment's bloom filter. Add every series of every block; adding one
// twice is harmless.
func (w *Writer) AddSeries(name string) { w.series[seriesHash(name)] = struct{}{} }

// SetBlockKeys records that block i (appended already; empty frames
// count) holds keyed rows only with keys in span. A block whose keys were
// not told (or told nil) is sealed with unknown keys: any key may be
// present.
func (w *Writer) SetBlockKeys(i int, span *KeySpan) {
	for len(w.keys) <= i {
		w.keys = append(w.keys, UnknownKeys())
	}
	w.keys[i] = UnknownKeys()
	if span != nil {
		w.keys[i] = KeySpan{}
		w.keys[i].Merge(span)
	}
}

// SetLastKeys is SetBlockKeys of the block appended last.
func (w *Writer) SetLastKeys(span *KeySpan) { w.SetBlockKeys(len(w.blocks)-1, span) }

// SetBloomFPRate sets the bloom filter's target false-positive rate,
// clamped to [1e-6, 0.5]. The default is DefaultBloomFPRate.
func (w *Writer) SetBloomFPRate(p float64) {
	if !(p >= 1e-6) { // NaN too
		p = 1e-6
	}
	w.fpRate = min(p, 0.5)
}

// Seal writes the block index, the series bloom filter, the key span and
// the footer,
// then syncs: the segment is then immutable. Close the Writer after.
func (w *Writer) Seal() error {
	if err := w.writeTrailer(); err != nil {
		return err
	}
	return w.Sync()
}

// SealUnsynced is Seal without its fsync: the caller makes the segment
// durable later (File.Sync on any handle of it) and must not rely on it
// surviving a crash before then.
func (w *Writer) SealUnsynced() error { return w.writeTrailer() }

// writeTrailer writes index, bloom, key span and footer without syncing.
func (w *Writer) writeTrailer() error {
	if err := w.check("seal"); err != nil {
		return err
	}
	bf := newBloom(len(w.series), w.fpRate)
	if w.noBloom {
		bf = &bloom{}
	}
	for h := range w.series {
		bf.add(h)
	}
	ft := footer{indexOff: w.size, rows: w.rows}
	w.buf = appendIndex(w.buf[:0], w.blocks)
	ft.indexLen = int64(len(w.buf))
	ft.bloomOff = ft.indexOff + ft.indexLen
	w.buf = appendBloom(w.buf, bf)
	ft.bloomLen = int64(len(w.buf)) - ft.indexLen
	if w.hdr.Version >= V2 { // a version 1 file reopened for recovery keeps its layout
		spans := make([]*KeySpan, len(w.blocks))
		for i := range min(len(w.keys), len(spans)) {
			spans[i] = &w.keys[i]
		}
		w.buf = appendKeySpans(w.buf, spans)
	}
	w.buf = appendFooter(w.buf, &ft)
	if err := w.write(w.buf); err != nil {
		return fmt.Errorf("seg: seal %s: %w", w.path, err)
	}
	w.buf = nil // a trailer may be large; the writer takes no more frames
	w.sealed = true
	return nil
}

// Close closes the file. It does not Sync: frames appended since the last
// Sync may be lost in a crash. An unsealed segment can be reopened with
// OpenWriter. Later calls do nothing.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("seg: close %s: %w", w.path, err)
	}
	return nil
}

// Path returns the file's name.
func (w *Writer) Path() string { return w.path }

// Header returns the segment header.
func (w *Writer) Header() Header { return w.hdr }

// Size returns the bytes written to the file, synced or not.
func (w *Writer) Size() int64 { return w.size }

// Synced returns the bytes made durable by the last successful Sync.
func (w *Writer) Synced() int64 { return w.synced }

// SyncFailed reports whether a Sync failed. After a failed fsync the
// operating system may have dropped the unsynced bytes while they still
// read back (Linux marks the pages clean): the caller should cut the file
// back to Synced before appending to it again.
func (w *Writer) SyncFailed() bool { return w.syncFailed }

// Blocks returns the appended blocks; the slice must not be modified.
func (w *Writer) Blocks() []BlockMeta { return slices.Clip(w.blocks) }

// Rows returns the rows of all appended blocks.
func (w *Writer) Rows() int64 { return w.rows }

// Sealed reports whether Seal wrote the trailer.
func (w *Writer) Sealed() bool { return w.sealed }

// Meta returns what a Reader opening the file as written would load:
// after a Rewrite, the new segment's, without reading it back.
func (w *Writer) Meta() Meta {
	return Meta{Header: w.hdr, Blocks: w.Blocks(), Rows: w.rows, Size: w.size, Sealed: w.sealed}
}
