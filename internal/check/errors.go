package check

import (
	"errors"

	"github.com/tsqdb/tsq/codec"
)

func asCorruption(err error) (*codec.CorruptionError, bool) {
	var ce *codec.CorruptionError
	ok := errors.As(err, &ce)
	return ce, ok
}
