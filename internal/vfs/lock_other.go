//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd || illumos)

package vfs

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
)

// Lock is not implemented for the operating system on this platform.
func (osFS) Lock(name string) (io.Closer, error) {
	return nil, &fs.PathError{Op: "lock", Path: filepath.Clean(name), Err: errors.ErrUnsupported}
}
