package compact

// prefetchAll asks the CPU to load the cache line of each address. The
// addresses need not be valid: a prefetch never faults.
//
//go:noescape
func prefetchAll(addrs []uintptr)

const hasPrefetch = true
