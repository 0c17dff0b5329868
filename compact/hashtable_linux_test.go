package compact

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestPresizeTouchesPages checks that a presized table's pages are
// mapped before any entry is inserted (touchPages): the fold's lookups
// must not fault them in one by one.
func TestPresizeTouchesPages(t *testing.T) {
	tab := newHashTable()
	tab.presize(1 << 19)
	page := unix.Getpagesize()
	for si := range tab.shards {
		slots := tab.shards[si].slots
		if len(slots) == 0 {
			t.Fatalf("shard %d has no slots after presize", si)
		}
		mem := unsafe.Slice((*byte)(unsafe.Pointer(&slots[0])), uintptr(len(slots))*unsafe.Sizeof(slots[0]))
		// The whole pages inside the slots (mincore wants an aligned start).
		skip := (page - int(uintptr(unsafe.Pointer(&mem[0])))%page) % page
		mem = mem[min(skip, len(mem)):]
		mem = mem[:len(mem)/page*page]
		if len(mem) == 0 {
			continue
		}
		vec := make([]byte, len(mem)/page)
		if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
			t.Skipf("mincore: %v", e)
		}
		for p, v := range vec {
			if v&1 == 0 {
				t.Fatalf("shard %d: page %d of %d not resident after presize", si, p, len(vec))
			}
		}
	}
}
