package tsq

import (
	"errors"
	"fmt"
)

// MaxStreamNameLen is the longest stream name.
const MaxStreamNameLen = 64

// ErrInvalidStreamName is returned for a stream name outside
// [a-z0-9][a-z0-9_.-]{0,63}.
var ErrInvalidStreamName = errors.New("tsq: invalid stream name")

// ValidateStreamName reports whether name can name a stream: 1 to 64 bytes
// of lower-case ASCII letters, digits, '_', '.' and '-', starting with a
// letter or digit. Such a name is safe as a directory name: it cannot be
// empty, ".", "..", or contain a path separator.
func ValidateStreamName(name string) error {
	if len(name) == 0 || len(name) > MaxStreamNameLen {
		return fmt.Errorf("%w %q: must be 1 to %d characters", ErrInvalidStreamName, name, MaxStreamNameLen)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case i > 0 && (c == '_' || c == '.' || c == '-'):
		default:
			return fmt.Errorf("%w %q: character %q at position %d; use [a-z0-9][a-z0-9_.-]*", ErrInvalidStreamName, name, c, i)
		}
	}
	return nil
}
