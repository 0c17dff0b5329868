package tsq

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

const (
	importKillEnv       = "TSQ_IMPORT_KILL_DIR"
	importKillStreamEnv = "TSQ_IMPORT_KILL_STREAM" // default "ev"
)

const killImportRows = 30000

// TestImportKillChild is the child of TestImportSIGKILL: it imports
// killImportRows generated rows into stream "ev" (or $TSQ_IMPORT_KILL_STREAM)
// and says so.
func TestImportKillChild(t *testing.T) {
	dir := os.Getenv(importKillEnv)
	if dir == "" {
		t.Skip("child process of TestImportSIGKILL")
	}
	s, err := Open(dir, &Options{SegmentMaxBytes: 32 << 10})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	fmt.Println("started")
	o := importOpts(t)
	o.hook = func(step string) error {
		fmt.Println("step", step)
		time.Sleep(20 * time.Millisecond) // let the parent's kill land in this step
		return nil
	}
	stream := os.Getenv(importKillStreamEnv)
	if stream == "" {
		stream = "ev"
	}
	st, err := s.Import(ctx, stream, &jsonGen{rows: killImportRows}, o)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	fmt.Println("committed", st.Rows)
	s.Close()
	os.Exit(0)
}

// TestImportSIGKILL kills a child process importing into a store at 30
// random moments (while staging or committing); each time the reopened
// store holds the stream as before or with the whole import, and no
// staging is left.
func TestImportSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1), rec(day0, "a", 2)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	want := 2
	var killed, committed int
	steps := []string{"claim", "journal", "publish", "cleanup"}
	var full time.Duration // how long a whole import takes (run 0)
	for it := 0; killed < 30 && it < 100; it++ {
		cmd, lines := startChild(t, "TestImportKillChild", importKillEnv+"="+dir)
		if l := <-lines; l != "started" {
			t.Fatalf("run %d: child said %q", it, l)
		}
		start := time.Now()
		// Run 0 completes; odd runs die at a random commit step (right as
		// the step begins, or a moment into it), even runs after a random
		// delay within the duration of a whole import.
		var how string
		var kill <-chan time.Time
		atStep := ""
		switch {
		case it == 0:
			how = "not killed"
		case it%2 == 1:
			atStep = steps[rng.IntN(len(steps))]
			how = "at step " + atStep
		default:
			d := time.Duration(rng.Int64N(int64(full) * 4 / 5))
			kill = time.After(d)
			how = fmt.Sprintf("after %v", d)
		}
		done, sawStep := false, ""
	loop:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break loop
				}
				if strings.HasPrefix(l, "error") {
					t.Fatalf("run %d: child: %s", it, l)
				}
				if strings.HasPrefix(l, "committed") {
					done = true
				}
				if step, ok := strings.CutPrefix(l, "step "); ok {
					sawStep = step
					if step == atStep {
						time.Sleep(time.Duration(rng.IntN(2)) * time.Millisecond)
						_ = cmd.Process.Signal(syscall.SIGKILL)
					}
				}
			case <-kill:
				_ = cmd.Process.Signal(syscall.SIGKILL)
			}
		}
		_ = cmd.Wait()
		if it == 0 {
			full = time.Since(start)
		}
		if done {
			committed++
		} else {
			killed++
		}
		s, err := Open(dir, nil)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", it, err)
		}
		stagingEmpty(t, vfs.Default, dir)
		got := countT(t, s, "ev")
		switch {
		case got == want+killImportRows:
			want = got // committed, whether or not the child said so before it died
		case got == want && !done:
		default:
			t.Fatalf("run %d (killed %s, last step %q, acknowledged %v): %d rows, want %d or %d", it, how, sawStep, done, got, want, want+killImportRows)
		}
		t.Logf("run %2d: killed %-28s last step %-8q -> %d rows", it, how, sawStep, got)
		if seqs := allSeqs(t, s, "ev"); len(seqs) != got || seqs[len(seqs)-1] != uint64(got) {
			t.Fatalf("run %d: seqs not contiguous", it)
		}
		s.Close()
	}
	t.Logf("%d runs killed before their acknowledgement, %d acknowledged; %d rows at the end", killed, committed, want)
	if killed < 30 {
		t.Fatalf("only %d kills landed mid-import", killed)
	}
}

// TestImportSIGKILLNewStream kills a child process importing into a
// stream that does not exist yet, at random moments and at each commit
// step: the reopened store lists no such stream and has no directory
// for it, or holds it with the whole import.
func TestImportSIGKILLNewStream(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	dir := t.TempDir()
	steps := []string{"claim", "journal", "publish", "cleanup"}
	var full time.Duration
	absent, present := 0, 0
	for it := range 12 {
		stream := fmt.Sprintf("nw%d", it)
		cmd := exec.Command(os.Args[0], "-test.run=^TestImportKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), importKillEnv+"="+dir, importKillStreamEnv+"="+stream)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		if !sc.Scan() || sc.Text() != "started" {
			t.Fatalf("run %d: child said %q", it, sc.Text())
		}
		start := time.Now()
		var timer *time.Timer
		atStep, how := "", "not killed"
		switch {
		case it == 0:
		case it%2 == 1:
			atStep = steps[rng.IntN(len(steps))]
			how = "at step " + atStep
		default:
			d := time.Duration(rng.Int64N(int64(full) * 4 / 5))
			timer = time.AfterFunc(d, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
			how = fmt.Sprintf("after %v", d)
		}
		done := false
		for sc.Scan() {
			l := sc.Text()
			if strings.HasPrefix(l, "error") {
				t.Fatalf("run %d: child: %s", it, l)
			}
			done = done || strings.HasPrefix(l, "committed")
			if step, ok := strings.CutPrefix(l, "step "); ok && step == atStep {
				_ = cmd.Process.Signal(syscall.SIGKILL)
			}
		}
		_ = cmd.Wait()
		if timer != nil {
			timer.Stop()
		}
		if it == 0 {
			full = time.Since(start)
		}
		s, err := Open(dir, nil)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", it, err)
		}
		names, _ := s.Streams()
		if slices.Contains(names, stream) {
			if got := countT(t, s, stream); got != killImportRows {
				t.Fatalf("run %d (killed %s): %d rows", it, how, got)
			}
			present++
		} else {
			if done {
				t.Fatalf("run %d: acknowledged import missing", it)
			}
			noStreamIn(t, s, vfs.Default, dir, stream)
			absent++
		}
		t.Logf("run %2d: killed %-28s -> listed %v", it, how, names)
		s.Close()
	}
	if absent == 0 || present == 0 {
		t.Fatalf("absent %d, present %d: kills did not cover both outcomes", absent, present)
	}
}
