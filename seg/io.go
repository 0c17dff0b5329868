package seg

import (
	"errors"
	"fmt"
	"io"
)

// readFull reads len(buf) bytes at off. Callers check off and len(buf)
// against the file size first, so a short read is an IO error (the file
// shrank), not corruption.
func readFull(f io.ReaderAt, path string, buf []byte, off int64) error {
	n, err := f.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("seg: read %s: %d bytes at offset %d: %w", path, len(buf), off, err)
}
