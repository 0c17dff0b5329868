package seg

import (
	"errors"
	"fmt"

	"github.com/tsqdb/tsq/codec"
)

// Errors of writing a segment. Corruption found when reading one is a
// *codec.CorruptionError matching chunk.ErrCorrupt instead.
var (
	// ErrSealed: the segment is sealed and takes no more blocks.
	ErrSealed = errors.New("seg: segment is sealed")
	// ErrBadBlock: Append was given bytes that are not one valid chunk
	// block, or metadata that disagrees with it or with the blocks before.
	ErrBadBlock = errors.New("seg: invalid block")
	// ErrLimit: a segment limit (MaxBlockLen, MaxBlocks, MaxStreamLen)
	// would be exceeded.
	ErrLimit = errors.New("seg: limit exceeded")
	// ErrClosed: the Writer or Reader was closed.
	ErrClosed = errors.New("seg: closed")
)

// corrupt returns a *codec.CorruptionError for path at file offset off.
func corrupt(path, section string, off int64, format string, args ...any) error {
	return &codec.CorruptionError{Path: path, Section: section, Offset: off, Err: fmt.Errorf(format, args...)}
}

// blockSection names block i in errors.
func blockSection(i int) string { return fmt.Sprintf("block %d", i) }

// frameSection names block i's frame header in errors.
func frameSection(i int) string { return fmt.Sprintf("block %d frame header", i) }
