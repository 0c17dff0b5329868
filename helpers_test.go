package tsq

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

var ctx = context.Background()

// day0 is 2026-12-01T00:00:00Z in ns.
var day0 = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).UnixNano()

func openT(t testing.TB, fsys vfs.FS, o Options) *Store {
	t.Helper()
	o.FS = fsys
	s, err := Open("db", &o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func closeT(t testing.TB, s *Store) {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// rec makes a record with an int field "n" and a string field "s".
func rec(t int64, series string, n int64) Record {
	return Record{Time: t, Series: series, Key: "k", Fields: []Field{{"n", Int(n)}, {"s", Str(series)}}}
}

// allSeqs scans the whole stream and returns its seqs in order.
func allSeqs(t testing.TB, s *Store, stream string) []uint64 {
	t.Helper()
	var out []uint64
	for b, err := range s.Scan(ctx, stream, ScanOptions{}) {
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
		for _, q := range column(b, colSeq).Ints {
			out = append(out, uint64(q))
		}
	}
	if !slices.IsSorted(out) {
		t.Fatalf("scan seqs not sorted")
	}
	return out
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }

// slowSyncFS delays every File.Sync, as a disk does: group commit gathers
// the appends that arrive during an fsync. MemFS syncs instantly.
func slowSyncFS(inner vfs.FS, delay time.Duration) vfs.FS {
	return vfs.WrapFS{FS: inner, File: func(f vfs.File) vfs.File { return slowSyncFile{f, delay} }}
}

type slowSyncFile struct {
	vfs.File
	delay time.Duration
}

func (f slowSyncFile) Sync() error {
	time.Sleep(f.delay)
	return f.File.Sync()
}

// gatedWriteFS holds every File.Write while its gate is held (hold), until
// the gate is opened (open): a seal (its trailer) then stays in flight for
// as long as a test needs, however slow the machine.
func gatedWriteFS(inner vfs.FS) (vfs.FS, *writeGate) {
	g := &writeGate{}
	return vfs.WrapFS{FS: inner, File: func(f vfs.File) vfs.File { return gatedWriteFile{f, g} }}, g
}

type writeGate struct{ mu sync.RWMutex }

func (g *writeGate) hold() { g.mu.Lock() }
func (g *writeGate) open() { g.mu.Unlock() }

type gatedWriteFile struct {
	vfs.File
	g *writeGate
}

func (f gatedWriteFile) Write(p []byte) (int, error) {
	f.g.mu.RLock()
	defer f.g.mu.RUnlock()
	return f.File.Write(p)
}

// untilStopped runs f(0), f(1), ... on a goroutine counted by wg until
// stop is closed or f returns false.
func untilStopped(wg *sync.WaitGroup, stop <-chan struct{}, f func(i int) bool) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if !f(i) {
				return
			}
		}
	}()
}

// settleBackground waits for the stream's background work (roll jobs,
// the next segment's creation, merges of sealed segments of small
// frames), takes its results into the view and makes every segment
// durable: a test that counts or fails the file system's operations then
// sees only its own.
func settleBackground(t testing.TB, s *Store, stream string) {
	t.Helper()
	st, err := s.stream(stream, false)
	if err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, j := range st.bgRoll.jobs {
		<-j.done
	}
	if n := st.bgRoll.next; n != nil {
		<-n.done
	}
	if _, err := st.rollDone(); err != nil {
		t.Fatal(err)
	}
	st.merge.wg.Wait()
	if st.applyMerges() {
		st.publish()
	}
	if err := st.syncUndurable(); err != nil { // nothing left for the interval tick to write
		t.Fatal(err)
	}
}
