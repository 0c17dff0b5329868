package index

import (
	"errors"

	"github.com/tsqdb/tsq/codec"
)

// rebase makes the offset of a payload decode error relative to the file.
func rebase(err error, base int) error {
	var ce *codec.CorruptionError
	if !errors.As(err, &ce) {
		return err
	}
	out := *ce
	out.Offset += int64(base)
	return &out
}
