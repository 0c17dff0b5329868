package chunk

import (
	"errors"

	"github.com/tsqdb/tsq/codec"
)

// ErrCorrupt is codec.ErrCorrupt: every decode failure caused by the bytes
// wraps it, with a *codec.CorruptionError saying where.
var ErrCorrupt = codec.ErrCorrupt

// Errors returned for invalid input to the encoder.
var (
	ErrTooManyRows    = errors.New("chunk: too many rows")
	ErrTooManyColumns = errors.New("chunk: too many columns")
	ErrBadColumn      = errors.New("chunk: invalid column")
)

func corrupt(section string, off int, err error) error {
	return &codec.CorruptionError{Section: section, Offset: int64(off), Err: err}
}
