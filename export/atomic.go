package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// AtomicFile is a file that appears at its final path only when Commit
// succeeds. Data goes to a temporary file in the same directory (so the
// rename cannot cross file systems); Commit flushes, fsyncs, renames and
// fsyncs the directory; Abort closes and removes the temporary file.
type AtomicFile struct {
	path string
	tmp  *os.File
	buf  *bufio.Writer
	done bool
}

// CreateAtomic starts an atomic write of path. Its directory must exist.
func CreateAtomic(path string) (*AtomicFile, error) {
	if path == "" {
		return nil, errors.New("export: empty output path")
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("export: output directory of %q: %w", path, err)
	}
	if !di.IsDir() {
		return nil, fmt.Errorf("export: output directory %q of %q is not a directory", dir, path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("export: output path %q is a directory", path)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("export: creating temporary file for %q: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("export: %q: %w", tmp.Name(), err)
	}
	return &AtomicFile{path: path, tmp: tmp, buf: bufio.NewWriterSize(tmp, 1<<20)}, nil
}

// Path is the final path.
func (a *AtomicFile) Path() string { return a.path }

// Write appends to the temporary file.
func (a *AtomicFile) Write(p []byte) (int, error) { return a.buf.Write(p) }

// Commit makes the file durable and visible at its path.
func (a *AtomicFile) Commit() error {
	if a.done {
		return fmt.Errorf("export: %q already finished", a.path)
	}
	err := a.buf.Flush()
	if err == nil {
		err = a.tmp.Sync()
	}
	if cerr := a.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.tmp.Name(), a.path)
	}
	a.done = true
	if err != nil {
		os.Remove(a.tmp.Name())
		return fmt.Errorf("export: writing %q: %w", a.path, err)
	}
	if err := syncDir(filepath.Dir(a.path)); err != nil {
		return fmt.Errorf("export: syncing directory of %q: %w", a.path, err)
	}
	return nil
}

// Abort discards the temporary file. It is a no-op after Commit or Abort.
func (a *AtomicFile) Abort() {
	if a.done {
		return
	}
	a.done = true
	a.tmp.Close()
	os.Remove(a.tmp.Name())
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteFile writes rr to path in format f atomically: on success the file is
// complete and durable; on any error, including ctx cancellation or a
// failing reader, neither the file nor a temporary file is left (an
// existing file at path is left as it was). A zero f means FormatFromPath(path).
// It does not release rr.
func WriteFile(ctx context.Context, path string, f Format, rr array.RecordReader, o *Options) (Stats, error) {
	if f == 0 {
		var err error
		if f, err = FormatFromPath(path); err != nil {
			return Stats{}, err
		}
	}
	if rr == nil {
		return Stats{}, errors.New("export: nil record reader")
	}
	// Fail on an unknown or unlinked format before touching the disk.
	if _, err := NewWriter(discard{}, f, rr.Schema(), o); err != nil {
		return Stats{}, err
	}
	af, err := CreateAtomic(path)
	if err != nil {
		return Stats{}, err
	}
	st, err := Write(ctx, af, f, rr, o)
	if err == nil && ctx != nil {
		err = ctx.Err()
	}
	if err != nil {
		af.Abort()
		return Stats{}, fmt.Errorf("%w (nothing written to %q)", err, path)
	}
	if err := af.Commit(); err != nil {
		return Stats{}, err
	}
	return st, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
