package main

import (
	"os"
	"runtime/pprof"
)

// writeHeapProfile writes the heap profile (allocations included) to path.
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	pprof.Lookup("heap").WriteTo(f, 0)
}
