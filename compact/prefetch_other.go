//go:build !amd64

package compact

func prefetchAll(addrs []uintptr) {}

const hasPrefetch = false
