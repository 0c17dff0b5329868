package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/internal/vfs"
)

// TmpSuffix ends the name of the temp file WriteFile writes. It is not
// ".tmp" on purpose: segment rewrites remove every "*.tmp" of a stream
// directory when they start, which must not race with a state file
// write; the owner removes stale state temp files itself (RemoveStaleTmp).
const TmpSuffix = ".new"

// CrashPoint names a step of WriteFile after which a test may stop it.
type CrashPoint string

// The crash points of WriteFile, in order.
const (
	CrashTmpWritten CrashPoint = "tmp-written" // written, not synced
	CrashTmpSynced  CrashPoint = "tmp-synced"  // synced and closed
	CrashRenamed    CrashPoint = "renamed"     // renamed, directory not synced
	CrashDirSynced  CrashPoint = "dir-synced"  // durable
)

// CrashPoints lists every CrashPoint in the order WriteFile reaches them.
func CrashPoints() []CrashPoint {
	return []CrashPoint{CrashTmpWritten, CrashTmpSynced, CrashRenamed, CrashDirSynced}
}

// Hook, if not nil, is called at each crash point; an error stops
// WriteFile there, leaving the files as they are.
type Hook func(CrashPoint) error

func (h Hook) at(p CrashPoint) error {
	if h == nil {
		return nil
	}
	return h(p)
}

// WriteFile atomically replaces path with a state file of kind holding
// payload: it writes path+TmpSuffix, fsyncs and closes it, renames it over
// path and fsyncs the directory. On an error (other than a hook's) the
// temp file is removed and path holds the old file, or, if only the
// directory fsync failed, the old or the new one.
func WriteFile(fsys vfs.FS, path string, kind Kind, seq uint64, payload []byte, hook Hook) error {
	if len(payload) > MaxPayload {
		return fmt.Errorf("index: write %s: payload of %d bytes exceeds %d", path, len(payload), MaxPayload)
	}
	buf := AppendFrame(make([]byte, 0, HeaderLen+len(payload)+TrailerLen), kind, seq, payload)
	tmp := path + TmpSuffix
	hookErr, err := writeFile(fsys, tmp, path, buf, hook)
	if hookErr != nil {
		return hookErr
	}
	if err != nil {
		if rerr := fsys.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
		return fmt.Errorf("index: write %v %s: %w", kind, path, err)
	}
	return nil
}

func writeFile(fsys vfs.FS, tmp, path string, buf []byte, hook Hook) (hookErr, err error) {
	f, err := fsys.Create(tmp)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(buf); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	if err := hook.at(CrashTmpWritten); err != nil {
		_ = f.Close()
		return err, nil
	}
	if err := f.Sync(); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if err := hook.at(CrashTmpSynced); err != nil {
		return err, nil
	}
	if err := fsys.Rename(tmp, path); err != nil {
		return nil, err
	}
	if err := hook.at(CrashRenamed); err != nil {
		return err, nil
	}
	if err := fsys.SyncDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	return hook.at(CrashDirSynced), nil
}

// RemoveStaleTmp removes the temp files of the given state files in dir
// left by an interrupted WriteFile, then syncs dir if it removed any. It
// returns the paths removed. Run it before any WriteFile in dir starts.
func RemoveStaleTmp(fsys vfs.FS, dir string, names ...string) (removed []string, err error) {
	for _, name := range names {
		p := filepath.Join(dir, name+TmpSuffix)
		err := fsys.Remove(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return removed, fmt.Errorf("index: remove stale temp file: %w", err)
		}
		removed = append(removed, p)
	}
	if len(removed) > 0 {
		if err := fsys.SyncDir(dir); err != nil {
			return removed, fmt.Errorf("index: remove stale temp files in %s: %w", dir, err)
		}
	}
	return removed, nil
}

// ReadFile reads and decodes the state file path. A missing file gives an
// error matching fs.ErrNotExist; a file larger than any state file is
// refused before it is read.
func ReadFile(fsys vfs.FS, path string, want Kind) (Frame, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return Frame{}, fmt.Errorf("index: read %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Frame{}, fmt.Errorf("index: read %s: %w", path, err)
	}
	size := fi.Size()
	if size > HeaderLen+MaxPayload+TrailerLen {
		return Frame{}, fmt.Errorf("index: read %s: %w", path,
			corrupt(path, "header", 0, "file of %d bytes exceeds the largest state file", size))
	}
	buf := make([]byte, size)
	if n, err := f.ReadAt(buf, 0); int64(n) != size && err != nil && err != io.EOF {
		return Frame{}, fmt.Errorf("index: read %s: %w", path, err)
	} else if int64(n) != size {
		return Frame{}, fmt.Errorf("index: read %s: short read of %d bytes, %d expected", path, n, size)
	}
	fr, err := DecodeFrame(buf, path, want)
	if err != nil {
		return Frame{}, fmt.Errorf("index: read %s: %w", path, err)
	}
	return fr, nil
}

// ReadSeq reads only the header of the state file path and returns its
// write sequence: a cheap check of whether the file changed.
func ReadSeq(fsys vfs.FS, path string) (uint64, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return 0, fmt.Errorf("index: read %s: %w", path, err)
	}
	defer f.Close()
	var h [HeaderLen]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		if err == io.EOF {
			err = corrupt(path, "header", 0, "file shorter than the %d-byte header", HeaderLen)
		}
		return 0, fmt.Errorf("index: read %s: %w", path, err)
	}
	if string(h[:4]) != Magic {
		return 0, fmt.Errorf("index: read %s: %w", path, corrupt(path, "header", 0, "magic %q, want %q", h[:4], Magic))
	}
	return binary.LittleEndian.Uint64(h[8:]), nil
}

// WriteBitmap writes bm as the state file path of kind (KindDeleted or
// KindTombstoned); see WriteFile.
func WriteBitmap(fsys vfs.FS, path string, kind Kind, seq uint64, bm *roaring64.Bitmap, hook Hook) error {
	p, err := AppendBitmap(nil, bm)
	if err != nil {
		return err
	}
	return WriteFile(fsys, path, kind, seq, p, hook)
}

// ReadBitmap reads the bitmap state file path of kind and its write
// sequence. A missing file gives an error matching fs.ErrNotExist.
func ReadBitmap(fsys vfs.FS, path string, kind Kind) (*roaring64.Bitmap, uint64, error) {
	fr, err := ReadFile(fsys, path, kind)
	if err != nil {
		return nil, 0, err
	}
	bm, err := DecodeBitmap(fr.Payload, path)
	if err != nil {
		return nil, 0, fmt.Errorf("index: read %s: %w", path, rebase(err, HeaderLen))
	}
	return bm, fr.Seq, nil
}

// WriteRule writes r as the retention state file path; see WriteFile.
func WriteRule(fsys vfs.FS, path string, seq uint64, r *Rule, hook Hook) error {
	p, err := AppendRule(nil, r)
	if err != nil {
		return err
	}
	return WriteFile(fsys, path, KindRetention, seq, p, hook)
}

// ReadRule reads the retention state file path and its write sequence.
func ReadRule(fsys vfs.FS, path string) (Rule, uint64, error) {
	fr, err := ReadFile(fsys, path, KindRetention)
	if err != nil {
		return Rule{}, 0, err
	}
	r, err := DecodeRule(fr.Payload, path)
	if err != nil {
		return Rule{}, 0, fmt.Errorf("index: read %s: %w", path, rebase(err, HeaderLen))
	}
	return r, fr.Seq, nil
}

// WriteDurable writes the durable mark path: seq is the first seq of the
// newest segment known durable and sealed.
func WriteDurable(fsys vfs.FS, path string, seq uint64) error {
	return WriteFile(fsys, path, KindDurable, seq, nil, nil)
}

// ReadDurable reads the durable mark path.
func ReadDurable(fsys vfs.FS, path string) (uint64, error) {
	fr, err := ReadFile(fsys, path, KindDurable)
	if err != nil {
		return 0, err
	}
	if len(fr.Payload) != 0 {
		return 0, corrupt(path, "durable mark", HeaderLen, "%d payload bytes, want none", len(fr.Payload))
	}
	return fr.Seq, nil
}
