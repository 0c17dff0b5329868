package ingest

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// limitAllocator is the Arrow reader's allocator: it panics with a
// budgetError (recovered by recoverArrow) rather than hold more than
// limit bytes at once, so that an input claiming a huge batch, or
// compressed buffers claiming a huge size, cannot take the memory.
type limitAllocator struct {
	limit    int64
	used     atomic.Int64
	exceeded atomic.Bool // a request was refused (the decoder may wrap the panic)
}

// budgetError is the panic of limitAllocator.
type budgetError struct{ want, limit int64 }

func (e budgetError) Error() string {
	return "an Arrow batch needs more than its memory bound"
}

var goAlloc = memory.NewGoAllocator()

func (l *limitAllocator) grow(n int64) {
	if used := l.used.Add(n); used > l.limit {
		l.used.Add(-n)
		l.exceeded.Store(true)
		panic(budgetError{used, l.limit})
	}
}

func (l *limitAllocator) Allocate(size int) []byte {
	l.grow(int64(size))
	return goAlloc.Allocate(size)
}

func (l *limitAllocator) Reallocate(size int, b []byte) []byte {
	l.grow(int64(size - len(b)))
	return goAlloc.Reallocate(size, b)
}

func (l *limitAllocator) Free(b []byte) {
	l.used.Add(-int64(len(b)))
	goAlloc.Free(b)
}
