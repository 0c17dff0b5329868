package compact

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/tsqdb/tsq/internal/vfs"
)

// WatermarkFile is the name of the watermark file in a stream directory.
const WatermarkFile = "WATERMARK"

// Watermark file layout (docs/FORMAT.md, "Compaction watermark"):
//
//	<4b "TSQW"> <1b version = 1> <3b zero> <8b watermark, uint64 LE>
//	<4b CRC-32C (Castagnoli) of the 16 bytes before, LE>
//
// 20 bytes in all. Part of the format; do not change.
const (
	watermarkMagic   = "TSQW"
	watermarkV1      = WatermarkVersion
	watermarkFileLen = 20
)

// WatermarkVersion is the version of the watermark file this build
// writes and reads.
const WatermarkVersion = 1

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorruptWatermark is matched by the error of a watermark file that
// fails its checks.
var ErrCorruptWatermark = errors.New("compact: corrupt watermark file")

// encodeWatermark returns the 20 bytes of a watermark file holding w.
func encodeWatermark(w uint64) []byte {
	b := make([]byte, 0, watermarkFileLen)
	b = append(b, watermarkMagic...)
	b = append(b, watermarkV1, 0, 0, 0)
	b = binary.LittleEndian.AppendUint64(b, w)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// decodeWatermark parses the bytes of the watermark file path.
func decodeWatermark(b []byte, path string) (uint64, error) {
	switch {
	case len(b) != watermarkFileLen:
		return 0, fmt.Errorf("%w %s: %d bytes, want %d", ErrCorruptWatermark, path, len(b), watermarkFileLen)
	case string(b[:4]) != watermarkMagic:
		return 0, fmt.Errorf("%w %s: magic %q, want %q", ErrCorruptWatermark, path, b[:4], watermarkMagic)
	case binary.LittleEndian.Uint32(b[16:]) != crc32.Checksum(b[:16], castagnoli):
		return 0, fmt.Errorf("%w %s: CRC-32C %08x, stored %08x", ErrCorruptWatermark, path,
			crc32.Checksum(b[:16], castagnoli), binary.LittleEndian.Uint32(b[16:]))
	case b[4] != watermarkV1:
		return 0, fmt.Errorf("%w %s: unsupported version %d", ErrCorruptWatermark, path, b[4])
	case b[5] != 0 || b[6] != 0 || b[7] != 0:
		return 0, fmt.Errorf("%w %s: reserved bytes %x are not zero", ErrCorruptWatermark, path, b[5:8])
	}
	return binary.LittleEndian.Uint64(b[8:16]), nil
}

// LoadWatermark reads the watermark of the stream directory dir; ok is
// false when the file does not exist.
func LoadWatermark(fsys vfs.FS, dir string) (w uint64, ok bool, err error) {
	path := filepath.Join(dir, WatermarkFile)
	f, err := fsys.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("compact: read watermark: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, watermarkFileLen+1))
	if err != nil {
		return 0, false, fmt.Errorf("compact: read watermark %s: %w", path, err)
	}
	w, err = decodeWatermark(b, path)
	return w, err == nil, err
}

// StoreWatermark durably replaces the watermark of dir with w: it writes
// WATERMARK.tmp, fsyncs it, renames it over WATERMARK and fsyncs dir. A
// crash leaves the old or the new value, and perhaps a stale temp file
// (removed by seg.RemoveStaleTmp, which the store runs at open).
func StoreWatermark(fsys vfs.FS, dir string, w uint64) error {
	path := filepath.Join(dir, WatermarkFile)
	tmp := path + ".tmp"
	if err := writeSynced(fsys, tmp, encodeWatermark(w)); err != nil {
		_ = fsys.Remove(tmp)
		return fmt.Errorf("compact: store watermark %d in %s: %w", w, dir, err)
	}
	if err := fsys.Rename(tmp, path); err != nil {
		_ = fsys.Remove(tmp)
		return fmt.Errorf("compact: store watermark %d in %s: %w", w, dir, err)
	}
	if err := fsys.SyncDir(dir); err != nil {
		return fmt.Errorf("compact: store watermark %d in %s: %w", w, dir, err)
	}
	return nil
}

func writeSynced(fsys vfs.FS, path string, b []byte) error {
	f, err := fsys.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		return errors.Join(err, f.Close())
	}
	if err := f.Sync(); err != nil {
		return errors.Join(err, f.Close())
	}
	return f.Close()
}

// InitWatermark returns the watermark of dir, first writing floor when
// the stream has none: the store passes one below its lowest stored seq,
// so that a first pass does not take seqs that never held a row for
// uncompacted ones.
func InitWatermark(fsys vfs.FS, dir string, floor uint64) (uint64, error) {
	w, ok, err := LoadWatermark(fsys, dir)
	if err != nil || ok {
		return w, err
	}
	if err := StoreWatermark(fsys, dir, floor); err != nil {
		return 0, err
	}
	return floor, nil
}
