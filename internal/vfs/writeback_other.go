//go:build !linux

package vfs

func startWriteback(fd uintptr, off, n int64) {}

func dropCache(fd uintptr, off, n int64) {}
