package seg

import (
	"fmt"
	"path/filepath"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

// Recovery reports what OpenWriter cut from the end of a segment.
type Recovery struct {
	// TruncatedBytes is how many bytes were cut: a torn or corrupt frame
	// and everything after it.
	TruncatedBytes int64
	// DroppedFrames counts the frames in the cut bytes whose frame header
	// was whole and valid (a frame whose block was torn counts; a torn
	// frame header does not).
	DroppedFrames int
	// Cause is why the frames stopped, a *codec.CorruptionError naming the
	// first cut frame; nil when nothing was cut.
	Cause error
}

// OpenWriter reopens the unsealed segment path for appending, as after a
// crash. It reads every frame, checking its header and its block's CRC,
// truncates the file at the first torn or corrupt frame, and syncs it and
// its directory, so that frames appended later follow a durable prefix.
// The series for the bloom filter are read back from each block's
// "series" column (String or Bytes), when it has one. A sealed segment
// gives ErrSealed; a corrupt header or a damaged footer gives a
// *codec.CorruptionError, and nothing is truncated.
func OpenWriter(fsys vfs.FS, path string) (*Writer, Recovery, error) {
	f, err := fsys.OpenAppend(path)
	if err != nil {
		return nil, Recovery{}, fmt.Errorf("seg: open %s: %w", path, err)
	}
	w, rec, err := reopen(fsys, f, path)
	if err != nil {
		_ = f.Close()
		return nil, rec, err
	}
	return w, rec, nil
}

func reopen(fsys vfs.FS, f vfs.File, path string) (*Writer, Recovery, error) {
	var rec Recovery
	l, err := inspect(f, path)
	if err != nil {
		return nil, rec, err
	}
	if l.tail == validFooter {
		return nil, rec, fmt.Errorf("seg: open %s for writing: %w", path, ErrSealed)
	}
	w := newWriter(fsys, f, path, l.hdr)
	s := scan{f: f, path: path, firstSeq: l.hdr.FirstSeq, start: l.hdrLen, size: l.size, verify: true, onBlock: w.recoverSeries}
	res, err := s.run()
	if err != nil {
		return nil, rec, err
	}
	if err := l.resolveDamaged(&res, path); err != nil {
		return nil, rec, err
	}
	if res.end < l.size {
		rec = Recovery{TruncatedBytes: l.size - res.end, Cause: res.cause}
		if rec.DroppedFrames, err = countFrames(f, path, res.end, l.size); err != nil {
			return nil, rec, err
		}
		if err := f.Truncate(res.end); err != nil {
			return nil, rec, fmt.Errorf("seg: recover %s: %w", path, err)
		}
	}
	// What was read may not be durable yet (a write whose fsync failed in
	// this process, a create cut before its fsyncs): make it so before
	// frames go after it.
	if err := f.Sync(); err != nil {
		return nil, rec, fmt.Errorf("seg: recover %s: %w", path, err)
	}
	if err := fsys.SyncDir(filepath.Dir(path)); err != nil {
		return nil, rec, fmt.Errorf("seg: recover %s: %w", path, err)
	}
	w.size, w.synced, w.kicked = res.end, res.end, res.end
	w.blocks, w.rows = res.blocks, res.rows
	return w, rec, nil
}

// recoverSeries adds the series of a block read back by OpenWriter. A
// block whose series column does not decode disables the filter rather
// than risk a false negative.
func (w *Writer) recoverSeries(_ int, block []byte) {
	if !w.noBloom && w.addBlockSeries(block) != nil {
		w.noBloom = true
	}
}

// addBlockSeries adds the values of block's "series" column, if any.
func (w *Writer) addBlockSeries(block []byte) error {
	if err := w.dec.Reset(block); err != nil {
		return err
	}
	i := w.dec.Find("series")
	if i < 0 {
		return nil
	}
	if t := w.dec.Info(i).Type; t != chunk.String && t != chunk.Bytes {
		return nil
	}
	var col chunk.Column
	if err := w.dec.Column(i, &col); err != nil {
		return err
	}
	for j := range col.Dict.Len() {
		w.series[seriesHash(string(col.Dict.At(j)))] = struct{}{}
	}
	return nil
}

// CutToFrames cuts segment path after its last frame that checks (frame
// header and block CRC), whatever its footer says: a sealed file whose
// trailer or a block was damaged becomes an unsealed one holding the
// valid prefix, which OpenWriter then reopens. It fsyncs the file and
// reports what it cut. A damaged header is an error matching
// chunk.ErrCorrupt.
func CutToFrames(fsys vfs.FS, path string) (Recovery, error) {
	var rec Recovery
	f, err := fsys.OpenAppend(path)
	if err != nil {
		return rec, fmt.Errorf("seg: open %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return rec, fmt.Errorf("seg: stat %s: %w", path, err)
	}
	hdr, hdrLen, err := readHeader(f, path, fi.Size())
	if err != nil {
		return rec, err
	}
	s := scan{f: f, path: path, firstSeq: hdr.FirstSeq, start: hdrLen, size: fi.Size(), verify: true, onBlock: func(int, []byte) {}}
	res, err := s.run()
	if err != nil {
		return rec, err
	}
	if res.end == fi.Size() {
		return rec, nil
	}
	rec = Recovery{TruncatedBytes: fi.Size() - res.end, Cause: res.cause}
	if err := f.Truncate(res.end); err != nil {
		return rec, fmt.Errorf("seg: cut %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return rec, fmt.Errorf("seg: cut %s: %w", path, err)
	}
	return rec, nil
}
