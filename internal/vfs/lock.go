package vfs

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// ErrLocked is matched (errors.Is) by every error Lock returns because the
// lock is held by someone else. The error is a *LockError.
var ErrLocked = errors.New("vfs: locked")

// LockError reports a lock file held by another holder.
type LockError struct {
	Path string // the lock file
	PID  int    // pid read from the lock file, 0 if unknown
}

func (e *LockError) Error() string {
	if e.PID <= 0 {
		return fmt.Sprintf("vfs: lock %s: locked by another process (pid unknown)", e.Path)
	}
	return fmt.Sprintf("vfs: lock %s: locked by pid %d", e.Path, e.PID)
}

// Unwrap makes a *LockError match ErrLocked.
func (e *LockError) Unwrap() error { return ErrLocked }

// maxPIDLen bounds what is read from a lock file when naming its holder.
const maxPIDLen = 32

// pidContent is what a holder writes into its lock file.
func pidContent(pid int) []byte { return strconv.AppendInt(nil, int64(pid), 10) }

// parsePID reads a holder's pid from lock file content, 0 if there is none.
// The holder may not have written it yet, so anything else yields 0.
func parsePID(b []byte) int {
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
