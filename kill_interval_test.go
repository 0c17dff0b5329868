package tsq

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

const killIntervalEnv = "TSQ_KILL_INTERVAL_DIR"

// TestKillIntervalChild is the child of TestSIGKILLInterval: under
// SyncInterval it appends records two hours apart (a background roll
// every 12 appends: seals and creates without fsyncs, durable.go) and,
// every 40 appends, reads the stream, which writes every acknowledged
// row to the files, and prints "written <last seq>". It runs until it is
// killed.
func TestKillIntervalChild(t *testing.T) {
	dir := os.Getenv(killIntervalEnv)
	if dir == "" {
		t.Skip("child process of TestSIGKILLInterval")
	}
	iter, _ := strconv.Atoi(os.Getenv("TSQ_KILL_ITER"))
	s, err := Open(dir, &Options{Sync: SyncInterval, SyncInterval: 5 * time.Millisecond, BlockRows: 16})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	base := day0 + int64(iter)*400*dayNS
	for i := 0; ; i++ {
		seqs, err := s.Append(ctx, "ev", crashRecord(iter, i, base+int64(i)*int64(2*time.Hour)))
		if err == nil && i%40 == 39 {
			_, err = s.Count("ev")
			fmt.Fprintln(out, "written", seqs[0])
			out.Flush()
		}
		if err != nil {
			fmt.Fprintln(out, "error", err)
			out.Flush()
			os.Exit(2)
		}
	}
}

// TestSIGKILLInterval kills a child appending under SyncInterval (rolls
// sealed and created without fsyncs) at random moments, 20 times over
// one store directory, and checks after each reopen that the rows of
// earlier runs are unchanged, this run's rows are consecutive seqs
// (a prefix of what the child appended), every record whole, up to at
// least the last seq the child reported written (a kill loses no written
// byte: only the rows still in memory, at most one interval's). A run
// may start past the previous one's last row: seqs that a killed child
// acknowledged and lost, or that a segment created ahead of its rows
// claims, are never handed out again.
func TestSIGKILLInterval(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	dir := t.TempDir()
	const runs = 20
	var cuts, written uint64
	var prevMax, prevRows uint64 // the rows of earlier runs
	for it := range runs {
		got := killAfterFirstLine(t, "TestKillIntervalChild", time.Duration(rng.IntN(80))*time.Millisecond,
			killIntervalEnv+"="+dir, "TSQ_KILL_ITER="+strconv.Itoa(it))
		for _, l := range got {
			if strings.HasPrefix(l, "error") || strings.HasPrefix(l, "---") {
				t.Fatalf("run %d: child: %s", it, l)
			}
			if v, ok := strings.CutPrefix(l, "written "); ok {
				q, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					t.Fatalf("run %d: %q", it, l)
				}
				written = max(written, q)
			}
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
			cuts++
		}
		var k, old, rows uint64
		for b, err := range s.Scan(ctx, "ev", ScanOptions{}) {
			if err != nil {
				t.Fatalf("run %d: scan: %v", it, err)
			}
			for i := range b.Rows {
				r := RecordAt(b, i)
				checkWhole(t, r)
				switch {
				case r.Seq <= k:
					t.Fatalf("run %d: seq %d after %d", it, r.Seq, k)
				case r.Seq <= prevMax:
					old++
				case k > prevMax && r.Seq != k+1:
					t.Fatalf("run %d: seq %d after %d: not a prefix of this run's rows (recovery %+v)", it, r.Seq, k, rec)
				}
				k = r.Seq
				rows++
			}
		}
		if old != prevRows {
			t.Fatalf("run %d: %d rows of earlier runs, want %d (recovery %+v)", it, old, prevRows, rec)
		}
		if k < written {
			t.Fatalf("run %d: last seq %d, but seq %d was written before the kill (recovery %+v)", it, k, written, rec)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		prevMax, prevRows, written = k, rows, k
	}
	t.Logf("%d runs: %d rows, last seq %d, %d reopens cut or removed something", runs, prevRows, prevMax, cuts)
}
