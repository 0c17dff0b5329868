package seg

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TmpSuffix ends the name of the temporary file a Rewrite writes.
const TmpSuffix = ".tmp"

// CrashPoint names a step of Rewrite after which a test may stop it, to
// check what a crash there leaves.
type CrashPoint string

// The crash points of Rewrite, in order.
const (
	// CrashTmpWritten: the new segment is written and sealed in the temp
	// file but not synced.
	CrashTmpWritten CrashPoint = "tmp-written"
	// CrashTmpSynced: the temp file is synced and closed.
	CrashTmpSynced CrashPoint = "tmp-synced"
	// CrashRenamed: the temp file is renamed over the segment; the
	// directory is not synced.
	CrashRenamed CrashPoint = "renamed"
	// CrashDirSynced: the directory is synced; the rewrite is durable.
	CrashDirSynced CrashPoint = "dir-synced"
)

// CrashPoints lists every CrashPoint in the order Rewrite reaches them.
func CrashPoints() []CrashPoint {
	return []CrashPoint{CrashTmpWritten, CrashTmpSynced, CrashRenamed, CrashDirSynced}
}

// CrashHooks lets tests stop a Rewrite at a crash point.
type CrashHooks struct {
	// At is called at each crash point; a non-nil error stops Rewrite
	// there, leaving everything as it is, and Rewrite returns the error.
	At func(CrashPoint) error
}

func (h *CrashHooks) at(p CrashPoint) error {
	if h == nil || h.At == nil {
		return nil
	}
	return h.At(p)
}

// Rewrite replaces the segment path crash-safely: it writes a new segment
// to path+TmpSuffix with the same stream and first seq and the generation
// plus one, lets fn append its blocks and series, seals and syncs it,
// renames it over path and syncs the directory. A crash at any point
// leaves either the old or the new segment at path, and perhaps a stale
// temp file for RemoveStaleTmp. On an error other than a hook's, Rewrite
// removes the temp file; path holds the old segment, or, if the error was
// the directory sync after the rename, either segment until the next
// successful SyncDir. Readers that opened the old segment keep reading it.
func Rewrite(fsys vfs.FS, path string, fn func(w *Writer) error, hooks *CrashHooks) error {
	return rewriteWith(fsys, path, fn, hooks, fsys.CreateNew)
}

// RewriteDropBehind is Rewrite with the new segment's pages leaving the
// page cache as they are written back (vfs.CreateNewUncached): for a
// rewrite whose bytes are not about to be read, such as compaction's,
// it holds no more of the cache than the device has yet to take, and
// evicts nothing readers keep there. Its writes are copies into the
// cache, which the system writes back meanwhile: the writer does not
// wait for the device as a direct write does (RewriteDirect). What a
// crash leaves is the same as Rewrite's.
func RewriteDropBehind(fsys vfs.FS, path string, fn func(w *Writer) error, hooks *CrashHooks) error {
	// A rewrite keeps or removes rows: the new file is at most about the
	// old one's size, reserved at once (vfs.CreateNewUncachedSize).
	var size int64
	if fi, err := fsys.Stat(path); err == nil {
		size = fi.Size()
	}
	return rewriteWith(fsys, path, fn, hooks, func(name string) (vfs.File, error) {
		return vfs.CreateNewUncachedSize(fsys, name, size)
	})
}

// RewriteDirect is Rewrite with the new segment written past the page
// cache where the system allows (vfs.CreateNewDirect): for a rewrite
// whose bytes are not about to be read, such as compaction's, it takes
// no memory for the cache and evicts nothing readers keep there. What
// a crash leaves is the same as Rewrite's.
func RewriteDirect(fsys vfs.FS, path string, fn func(w *Writer) error, hooks *CrashHooks) error {
	return rewriteWith(fsys, path, fn, hooks, func(name string) (vfs.File, error) {
		return vfs.CreateNewDirect(fsys, name)
	})
}

func rewriteWith(fsys vfs.FS, path string, fn func(w *Writer) error, hooks *CrashHooks, create func(string) (vfs.File, error)) error {
	old, err := readHeaderOf(fsys, path)
	if err != nil {
		return fmt.Errorf("seg: rewrite %s: %w", path, err)
	}
	tmp := path + TmpSuffix
	if err := fsys.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("seg: rewrite %s: %w", path, err)
	}
	// The temp file's header needs no fsync of its own, nor its
	// directory entry: the whole file is synced before the rename, and a
	// crash before that leaves a temp file RemoveStaleTmp deletes.
	w, err := createUnsynced(fsys, tmp, old.Stream, old.Generation+1, old.FirstSeq, create)
	if err != nil {
		return fmt.Errorf("seg: rewrite %s: %w", path, err)
	}
	hookErr, err := rewrite(fsys, w, path, fn, hooks)
	if hookErr != nil {
		_ = w.Close() // a simulated crash: leave the files as they are
		return hookErr
	}
	if err != nil {
		err = errors.Join(err, w.Close())
		if rerr := fsys.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
		return fmt.Errorf("seg: rewrite %s: %w", path, err)
	}
	return nil
}

// rewrite runs the steps after Create; a hook's error comes back first.
func rewrite(fsys vfs.FS, w *Writer, path string, fn func(w *Writer) error, hooks *CrashHooks) (hookErr, err error) {
	if err := fn(w); err != nil {
		return nil, err
	}
	if err := w.writeTrailer(); err != nil {
		return nil, err
	}
	if err := hooks.at(CrashTmpWritten); err != nil {
		return err, nil
	}
	if err := w.Sync(); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if err := hooks.at(CrashTmpSynced); err != nil {
		return err, nil
	}
	if err := fsys.Rename(w.path, path); err != nil {
		return nil, err
	}
	if err := hooks.at(CrashRenamed); err != nil {
		return err, nil
	}
	if err := fsys.SyncDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	return hooks.at(CrashDirSynced), nil
}

// ReadHeader reads the header of the segment file path; a torn or
// damaged one is an error matching chunk.ErrCorrupt.
func ReadHeader(fsys vfs.FS, path string) (Header, error) { return readHeaderOf(fsys, path) }

// readHeaderOf reads the header of the segment file path.
func readHeaderOf(fsys vfs.FS, path string) (Header, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Header{}, err
	}
	h, _, err := readHeader(f, path, fi.Size())
	return h, err
}

// RemoveStaleTmp removes every file in dir whose name ends in TmpSuffix,
// left by a Rewrite that did not finish, then syncs dir. It returns the
// paths removed. Run it before any Rewrite in dir starts.
func RemoveStaleTmp(fsys vfs.FS, dir string) (removed []string, err error) {
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("seg: remove stale temp files in %s: %w", dir, err)
	}
	for _, name := range names {
		if !strings.HasSuffix(name, TmpSuffix) {
			continue
		}
		p := filepath.Join(dir, name)
		if err := fsys.Remove(p); err != nil {
			return removed, fmt.Errorf("seg: remove stale temp file: %w", err)
		}
		removed = append(removed, p)
	}
	if len(removed) > 0 {
		if err := fsys.SyncDir(dir); err != nil {
			return removed, fmt.Errorf("seg: remove stale temp files in %s: %w", dir, err)
		}
	}
	return removed, nil
}
