package tsq

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const killChildEnv = "TSQ_KILL_CHILD_DIR"

// TestKillChild is the child of TestSIGKILL: it appends from several
// goroutines under SyncAlways on the OS file system and prints each
// acknowledged seq, until it is killed.
func TestKillChild(t *testing.T) {
	dir := os.Getenv(killChildEnv)
	if dir == "" {
		t.Skip("child process of TestSIGKILL")
	}
	iter, _ := strconv.Atoi(os.Getenv("TSQ_KILL_ITER"))
	segMax := int64(64 << 10)
	if v, err := strconv.ParseInt(os.Getenv("TSQ_KILL_SEGMAX"), 10, 64); err == nil {
		segMax = v
	}
	s, err := Open(dir, &Options{SegmentMaxBytes: segMax, BlockRows: 64})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	var mu sync.Mutex
	var clock atomic.Int64
	base := day0 + int64(iter)*int64(6*time.Hour)
	out := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				recs := []Record{crashRecord(g, 2*i, base+clock.Add(int64(time.Second))), crashRecord(g, 2*i+1, base+clock.Add(int64(time.Second)))}
				seqs, err := s.Append(ctx, "ev", recs...)
				mu.Lock()
				if err != nil {
					fmt.Fprintln(out, "error", err)
					out.Flush()
					mu.Unlock()
					os.Exit(2)
				}
				for _, q := range seqs {
					fmt.Fprintln(out, q)
				}
				out.Flush() // acknowledged: tell the parent now
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// TestSIGKILL runs a child that appends under SyncAlways, kills it with
// SIGKILL after a random delay, reopens the store and checks that every
// seq the child printed as acknowledged is there, 50 times over one
// store directory, so recovery also runs over recovered segments.
func TestSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	dir := t.TempDir()
	acked := map[uint64]bool{}
	start := time.Now()
	const runs = 50
	var truncations int
	for it := range runs {
		got := killAfterFirstLine(t, "TestKillChild", time.Duration(rng.IntN(60))*time.Millisecond,
			killChildEnv+"="+dir, "TSQ_KILL_ITER="+strconv.Itoa(it))
		for _, l := range got {
			if strings.HasPrefix(l, "error") || strings.HasPrefix(l, "---") {
				t.Fatalf("run %d: child: %s", it, l)
			}
			q, err := strconv.ParseUint(l, 10, 64)
			if err != nil {
				continue // test framework output
			}
			if acked[q] {
				t.Fatalf("run %d: seq %d acknowledged twice", it, q)
			}
			acked[q] = true
		}

		s, err := Open(dir, nil)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", it, err)
		}
		rec, err := s.Recovered("ev")
		if err != nil {
			t.Fatalf("run %d: %v", it, err)
		}
		if rec.Truncated() {
			truncations++
		}
		present := map[uint64]bool{}
		for b, err := range s.Scan(ctx, "ev", ScanOptions{}) {
			if err != nil {
				t.Fatalf("run %d: scan: %v", it, err)
			}
			for i := range b.Rows {
				r := RecordAt(b, i)
				checkWhole(t, r)
				present[r.Seq] = true
			}
		}
		for q := range acked {
			if !present[q] {
				t.Fatalf("run %d: acknowledged seq %d missing after SIGKILL (recovery %+v)", it, q, rec)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d runs in %v: %d acknowledged seqs, all present; %d reopens cut a torn tail", runs, time.Since(start).Round(time.Millisecond), len(acked), truncations)
}

// TestReaderInOtherProcess: while a child process appends under SyncAlways,
// a read-only store opened in this process (another process than the
// writer) sees every seq the child has acknowledged, through the durable
// prefix of the active segment, and reads each of them whole.
func TestReaderInOtherProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	// One large segment: no roll, so no merge rewrites a file under the reader.
	cmd, lines := startChild(t, "TestKillChild", killChildEnv+"="+dir, "TSQ_KILL_ITER=0", "TSQ_KILL_SEGMAX="+strconv.Itoa(1<<30))
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		for range lines {
		}
		_ = cmd.Wait()
	}()
	checks := 0
	for round := 0; round < 5; round++ {
		// Collect some acknowledgements, then look from this process.
		var acked []uint64
		for len(acked) < 200 {
			l, ok := <-lines
			if !ok {
				break
			}
			if strings.HasPrefix(l, "error") {
				t.Fatalf("child: %s", l)
			}
			if q, err := strconv.ParseUint(l, 10, 64); err == nil {
				acked = append(acked, q)
			}
		}
		if len(acked) == 0 {
			t.Fatalf("round %d: child acknowledged nothing (its output ended)", round)
		}
		r, err := Open(dir, &Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("round %d: read-only open: %v", round, err)
		}
		n, err := r.Count("ev")
		if err != nil {
			t.Fatalf("round %d: count: %v", round, err)
		}
		if max := slicesMax(acked); uint64(n) < max {
			t.Fatalf("round %d: reader counts %d records, child acknowledged seq %d", round, n, max)
		}
		for _, q := range acked {
			rec, err := r.Get("ev", q)
			if err != nil {
				t.Fatalf("round %d: acknowledged seq %d not visible to a reader in another process: %v", round, q, err)
			}
			checkWhole(t, rec)
			checks++
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d acknowledged records read whole from another process", checks)
}

func slicesMax(s []uint64) uint64 {
	m := s[0]
	for _, v := range s[1:] {
		m = max(m, v)
	}
	return m
}

// startChild runs test name of this test binary in a child process, with
// env added to its environment, and returns it with the lines it prints
// (the channel is closed when its output ends).
func startChild(t *testing.T, name string, env ...string) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1024)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return cmd, lines
}

// killAfterFirstLine runs test name in a child process, waits for its
// first line of output, kills it with SIGKILL after delay and returns
// every line it printed.
func killAfterFirstLine(t *testing.T, name string, delay time.Duration, env ...string) []string {
	t.Helper()
	cmd, lines := startChild(t, name, env...)
	var got []string
	if first, ok := <-lines; ok {
		got = append(got, first)
	}
	time.Sleep(delay)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	for l := range lines {
		got = append(got, l)
	}
	_ = cmd.Wait()
	return got
}
