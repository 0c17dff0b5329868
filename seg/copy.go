package seg

import (
	"fmt"
	"io"

	"github.com/tsqdb/tsq/internal/vfs"
)

// CopyFrames appends frames [i, j) of r as they are: their bytes, frame
// headers included, copied in one range (by the kernel, copy_file_range,
// when both files are OS files; else read and written), neither decoded
// nor checked again. Each frame keeps its block's CRC from r's index,
// so a block damaged in r stays detectably damaged in w. The blocks'
// series are not known to w: add them (AddSeries) as for Append.
func (w *Writer) CopyFrames(r *Reader, i, j int) error {
	if err := w.check("append to"); err != nil {
		return err
	}
	if i < 0 || j > len(r.blocks) || i > j {
		return fmt.Errorf("seg: copy frames [%d, %d) of %s: out of range [0, %d)", i, j, r.path, len(r.blocks))
	}
	if i == j {
		return nil
	}
	if len(w.blocks)+j-i > MaxBlocks {
		return fmt.Errorf("seg: append to %s: %w: a segment holds at most %d blocks", w.path, ErrLimit, MaxBlocks)
	}
	n := len(w.blocks)
	prev := last(w.blocks)
	for k := i; k < j; k++ {
		m := r.blocks[k]
		p := metaProblem(&m)
		if p == "" {
			p = orderProblem(&m, prev, w.hdr.FirstSeq)
		}
		if p != "" {
			w.blocks = w.blocks[:n]
			return fmt.Errorf("seg: append to %s: %w: block %d of %s: %s", w.path, ErrBadBlock, k, r.path, p)
		}
		m.Offset = w.size + (m.Offset - r.blocks[i].Offset)
		w.blocks = append(w.blocks, m)
		prev = &w.blocks[len(w.blocks)-1]
	}
	off, size := r.blocks[i].Offset, r.blocks[j-1].End()-r.blocks[i].Offset
	if err := w.copyFrom(r, off, size); err != nil {
		w.blocks = w.blocks[:n]
		w.err = err
		return fmt.Errorf("seg: append to %s: copy from %s: %w", w.path, r.path, err)
	}
	w.grew(size)
	for _, m := range w.blocks[n:] {
		w.rows += int64(m.Rows)
	}
	return nil
}

// copyFrom appends size bytes of r's file from offset off to w's file.
func (w *Writer) copyFrom(r *Reader, off, size int64) error {
	src, ok1 := vfs.OSFile(r.f)
	dst, ok2 := vfs.OSFile(w.f)
	if ok1 && ok2 {
		// ReadFrom of a limited *os.File copies with copy_file_range
		// (or falls back to a plain copy) from src's offset.
		if _, err := src.Seek(off, io.SeekStart); err != nil {
			return err
		}
		n, err := dst.ReadFrom(io.LimitReader(src, size))
		if err == nil && n < size {
			err = fmt.Errorf("short copy of %d of %d bytes: %w", n, size, io.ErrUnexpectedEOF)
		}
		return err
	}
	if rf, ok := vfs.Unwrapped(w.f).(io.ReaderFrom); ok && !ok2 {
		// A file that buffers its writes itself (vfs.CreateNewDirect)
		// reads the frames into its buffer.
		n, err := rf.ReadFrom(io.NewSectionReader(r.f, off, size))
		if err == nil && n < size {
			err = fmt.Errorf("short copy of %d of %d bytes: %w", n, size, io.ErrUnexpectedEOF)
		}
		return err
	}
	const chunk = 1 << 20
	buf := make([]byte, min(size, chunk))
	for done := int64(0); done < size; {
		b := buf[:min(size-done, chunk)]
		if err := readFull(r.f, r.path, b, off+done); err != nil {
			return err
		}
		if k, err := w.f.Write(b); err != nil {
			return err
		} else if k < len(b) {
			return fmt.Errorf("short write of %d of %d bytes", k, len(b))
		}
		done += int64(len(b))
	}
	return nil
}
