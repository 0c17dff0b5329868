//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd || illumos

package vfs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFlockSeparateFDs checks the property Lock relies on: flock locks of
// two open file descriptions of one file conflict within one process.
func TestFlockSeparateFDs(t *testing.T) {
	name := filepath.Join(t.TempDir(), "LOCK")
	f1, err := os.Create(name)
	must(t, err)
	defer f1.Close()
	f2, err := os.Open(name)
	must(t, err)
	defer f2.Close()
	must(t, flock(f1, syscall.LOCK_EX|syscall.LOCK_NB))
	if err := flock(f2, syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("second flock = %v, want EWOULDBLOCK", err)
	}
	must(t, flock(f1, syscall.LOCK_UN))
	must(t, flock(f2, syscall.LOCK_EX|syscall.LOCK_NB))
}

func TestOSLockInProcess(t *testing.T) {
	name := filepath.Join(t.TempDir(), "LOCK")
	must(t, os.WriteFile(name, []byte("stale content from a dead holder\n"), 0o644))
	l, err := Default.Lock(name)
	must(t, err)
	if got := readFile(t, Default, name); got != fmt.Sprint(os.Getpid()) {
		t.Fatalf("lock file = %q, want our pid", got)
	}
	for range 2 {
		_, err = Default.Lock(name)
		checkLocked(t, err, name, os.Getpid())
	}
	must(t, l.Close())
	l, err = Default.Lock(name)
	must(t, err)
	must(t, l.Close())
}

// lockChildEnv names the lock file a re-executed test binary should hold.
const lockChildEnv = "TSQ_VFS_LOCK_CHILD"

// TestOSLockCrossProcess re-executes the test binary as a child that takes
// the lock, prints "ok" and holds the lock until its stdin closes.
func TestOSLockCrossProcess(t *testing.T) {
	if name := os.Getenv(lockChildEnv); name != "" {
		lockChild(name)
		return
	}
	name := filepath.Join(t.TempDir(), "LOCK")

	// A child that releases by closing, then one that dies holding it.
	for _, kill := range []bool{false, true} {
		child, stdin := startLockChild(t, name)
		_, err := Default.Lock(name)
		checkLocked(t, err, name, child.Process.Pid)
		if kill {
			must(t, child.Process.Kill())
		} else {
			must(t, stdin.Close())
		}
		if err := child.Wait(); err != nil && !kill {
			t.Fatalf("child: %v", err)
		}
		l, err := Default.Lock(name) // released, by Close or by death
		must(t, err)
		must(t, l.Close())
	}
}

// startLockChild starts a child holding the lock on name and waits for its
// "ok". Closing the returned stdin makes the child release and exit.
func startLockChild(t *testing.T, name string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestOSLockCrossProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), lockChildEnv+"="+name)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	must(t, err)
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		switch line := sc.Text(); {
		case line == "ok":
			return cmd, stdin
		case strings.HasPrefix(line, "error:"):
			t.Fatalf("child: %s", line)
		}
	}
	t.Fatalf("child exited without taking the lock: %v", sc.Err())
	return nil, nil
}

// lockChild is the child's side: hold the lock on name until stdin closes.
func lockChild(name string) {
	l, err := Default.Lock(name)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("ok")
	io.Copy(io.Discard, os.Stdin)
	if err := l.Close(); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
