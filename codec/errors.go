package codec

import (
	"errors"
	"fmt"
)

// ErrCorrupt marks every decode failure caused by the bytes themselves.
// Match it with errors.Is; a *CorruptionError says where.
var ErrCorrupt = errors.New("tsq: corrupt data")

// CorruptionError locates a decode failure. Layers above codec add what they
// know: the chunk layer adds the column to Section and its base to Offset,
// the segment layer fills Path.
type CorruptionError struct {
	Path    string // file, when known
	Section string // what was being decoded, outermost first ("column value: packed")
	Offset  int64  // byte offset of the failure, relative to the outermost known base
	Err     error  // what was wrong
}

func (e *CorruptionError) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("corrupt %s in %s at offset %d: %v", e.Section, e.Path, e.Offset, e.Err)
	}
	return fmt.Sprintf("corrupt %s at offset %d: %v", e.Section, e.Offset, e.Err)
}

// Unwrap reports both ErrCorrupt and the underlying cause.
func (e *CorruptionError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// corrupt builds a *CorruptionError for section at offset off.
func corrupt(section string, off int, format string, args ...any) error {
	return &CorruptionError{Section: section, Offset: int64(off), Err: fmt.Errorf(format, args...)}
}

// Within rebases a decode error from a nested buffer that starts at base
// inside the caller's buffer, prefixing section. Other errors pass through.
func Within(err error, section string, base int) error {
	var ce *CorruptionError
	if !errors.As(err, &ce) {
		return err
	}
	out := *ce
	out.Offset += int64(base)
	if section != "" {
		out.Section = section + ": " + out.Section
	}
	return &out
}

// MaxCount bounds the value count any decoder accepts. Decoders also check
// the count against the bytes given before allocating: no encoding yields
// more than 8*MiniBlockLen values a byte (run-length excepted), so a decoder
// allocates at most min(n, MaxCount) values plus O(len(src)) bytes.
const MaxCount = 1 << 24

// checkCount rejects negative counts and counts above MaxCount.
func checkCount(section string, n int) error {
	if n < 0 || n > MaxCount {
		return corrupt(section, 0, "count %d outside 0..%d", n, MaxCount)
	}
	return nil
}
