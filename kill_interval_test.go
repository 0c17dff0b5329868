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
// one store directory, and checks after each reopen that the stream
// holds exactly seqs 1..k, every record whole, k at least the last seq
// the child reported written (a kill loses no written byte: only the
// rows still in memory, at most one interval's).
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
		var k uint64
		for b, err := range s.Scan(ctx, "ev", ScanOptions{}) {
			if err != nil {
				t.Fatalf("run %d: scan: %v", it, err)
			}
			for i := range b.Rows {
				r := RecordAt(b, i)
				checkWhole(t, r)
				if r.Seq != k+1 {
					t.Fatalf("run %d: seq %d after %d: not a prefix (recovery %+v)", it, r.Seq, k, rec)
				}
				k = r.Seq
			}
		}
		if k < written {
			t.Fatalf("run %d: %d rows, but seq %d was written before the kill (recovery %+v)", it, k, written, rec)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		written = k // the next child continues from here
	}
	t.Logf("%d runs: %d rows, %d reopens cut or removed something", runs, written, cuts)
}
