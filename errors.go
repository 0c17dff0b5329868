package tsq

import (
	"errors"
	"fmt"
	"strings"
)

// Errors of the store API, grouped by operation. Match them with
// errors.Is; the returned errors wrap them with context (stream, segment,
// record index).
var (
	// Open and options.

	// ErrInvalidOptions: an Options field is out of range.
	ErrInvalidOptions = errors.New("tsq: invalid options")
	// ErrReadOnly: a write was attempted on a store opened with
	// Options.ReadOnly.
	ErrReadOnly = errors.New("tsq: store is read-only")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("tsq: store is closed")

	// Append.

	// ErrInvalidRecord: a record breaks a rule of the data model (empty
	// series, unknown op, reserved or duplicate field name, size limits,
	// a field whose type differs between records of one batch).
	ErrInvalidRecord = errors.New("tsq: invalid record")

	// Reads.

	// ErrStreamNotFound: the stream has no directory in the store.
	ErrStreamNotFound = errors.New("tsq: stream not found")
	// ErrStreamExists: a stream to be created is there already.
	ErrStreamExists = errors.New("tsq: stream already exists")
	// ErrNotFound: no stored record has the seq asked for.
	ErrNotFound = errors.New("tsq: record not found")
)

// streamErr wraps err as an error of stream name: `tsq: stream "name":
// err`, without err's own "tsq: " prefix said twice.
func streamErr(name string, err error) error { return &streamError{name: name, err: err} }

type streamError struct {
	name string
	err  error
}

func (e *streamError) Error() string {
	return fmt.Sprintf("tsq: stream %q: %s", e.name, strings.TrimPrefix(e.err.Error(), "tsq: "))
}

func (e *streamError) Unwrap() error { return e.err }
