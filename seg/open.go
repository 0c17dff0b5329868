package seg

import (
	"fmt"

	"github.com/tsqdb/tsq/internal/vfs"
)

// layout is what the first and last bytes of a segment file say.
type layout struct {
	hdr    Header
	hdrLen int64 // where frames start
	size   int64
	tail   footerState
	foot   []byte // the last footerLen bytes, when tail != noFooter
}

// footOff returns the file offset of the footer.
func (l *layout) footOff() int64 { return l.size - footerLen }

// inspect reads the header and classifies the end of the file f.
func inspect(f vfs.File, path string) (layout, error) {
	fi, err := f.Stat()
	if err != nil {
		return layout{}, fmt.Errorf("seg: stat %s: %w", path, err)
	}
	l := layout{size: fi.Size()}
	if l.hdr, l.hdrLen, err = readHeader(f, path, l.size); err != nil {
		return l, err
	}
	if l.size-l.hdrLen < footerLen {
		return l, nil
	}
	l.foot = make([]byte, footerLen)
	if err := readFull(f, path, l.foot, l.footOff()); err != nil {
		return l, err
	}
	l.tail = classifyFooter(l.foot)
	return l, nil
}

// resolveDamaged decides a file whose footer looks damaged: when its
// frames run exactly to the end of the file it is unsealed and res is its
// prefix; otherwise it is a sealed file with a corrupt footer.
func (l *layout) resolveDamaged(res *scanResult, path string) error {
	if l.tail == damagedFooter && (res.cause != nil || res.end != l.size) {
		return damagedFooterError(l.foot, path, l.footOff())
	}
	return nil
}
