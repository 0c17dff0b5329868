package tsq

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestAppendSamplesAsync: under SyncAlways 4 goroutines keep 16 appends
// each in flight: every Wait returns the first seq of consecutive seqs,
// in each goroutine's order; group commits take appends of many
// goroutines and several of each (far more appends than fsyncs, more
// than 4 per fsync: more than blocking appends could share); a crash
// image taken after the Waits holds every sample.
func TestAppendSamplesAsync(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, slowSyncFS(mem, time.Millisecond), Options{Sync: SyncAlways})
	const goroutines, perG, depth, n = 4, 200, 16, 5
	var wg sync.WaitGroup
	firsts := make([][]uint64, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var inflight []*Pending
			wait := func() {
				first, err := inflight[0].Wait(ctx)
				if err != nil {
					t.Error(err)
				}
				firsts[g] = append(firsts[g], first)
				inflight = inflight[1:]
			}
			for i := range perG {
				times, values := make([]int64, n), make([]float64, n)
				for j := range n {
					times[j] = day0 + int64(i*n+j)
					values[j] = float64(g*1e6 + i*n + j)
				}
				p, err := s.AppendSamplesAsync(ctx, "m", "s", times, values)
				if err != nil {
					t.Error(err)
					return
				}
				inflight = append(inflight, p)
				if len(inflight) == depth {
					wait()
				}
			}
			for len(inflight) > 0 {
				wait()
			}
		}()
	}
	wg.Wait()
	seen := map[uint64]bool{}
	for g, fs := range firsts {
		for i, f := range fs {
			if f == 0 || (i > 0 && f <= fs[i-1]) || seen[f] {
				t.Fatalf("goroutine %d: first seqs %v", g, fs)
			}
			seen[f] = true
		}
	}
	m := s.Metrics()
	total := goroutines * perG
	if m.Appends != uint64(total) || m.Records != uint64(total*n) {
		t.Fatalf("metrics: %d appends, %d records", m.Appends, m.Records)
	}
	if perFsync := float64(total) / float64(m.Fsyncs); perFsync <= goroutines {
		t.Fatalf("%d appends in %d fsyncs: %.1f per fsync, no more than blocking appends share", total, m.Fsyncs, perFsync)
	} else {
		t.Logf("%d appends in %d fsyncs: %.1f per fsync", total, m.Fsyncs, perFsync)
	}
	c := openT(t, mem.CrashClone(), Options{ReadOnly: true})
	defer closeT(t, c)
	if got, err := c.Count("m"); err != nil || got != total*n {
		t.Fatalf("crash image: %d samples, %v; want %d", got, err, total*n)
	}
	closeT(t, s)
}

// TestAppendSamplesAsyncEdges: bad arguments fail at once; under the
// buffered policies the append is made at once; a Wait cancelled while
// its append is queued withdraws it; Wait repeats its outcome.
func TestAppendSamplesAsyncEdges(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{Sync: SyncInterval})
	if _, err := s.AppendSamplesAsync(ctx, "m", "s", []int64{1}, nil); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("mismatched lengths: %v", err)
	}
	if _, err := s.AppendSamplesAsync(ctx, "m", "", []int64{1}, []float64{1}); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("empty series: %v", err)
	}
	p, err := s.AppendSamplesAsync(ctx, "m", "s", []int64{day0}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count("m"); n != 1 {
		t.Fatalf("buffered policy: %d rows before Wait, want 1", n)
	}
	for range 2 {
		if first, err := p.Wait(ctx); first != 1 || err != nil {
			t.Fatalf("Wait = %d, %v", first, err)
		}
	}
	if _, err := s.AppendSamplesAsync(ctx, "../x", "s", []int64{day0}, []float64{1}); err == nil {
		t.Fatal("invalid stream name accepted")
	}
	closeT(t, s)
	if _, err := s.AppendSamplesAsync(ctx, "m", "s", []int64{day0}, []float64{1}); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v, want ErrClosed", err)
	}

	// SyncAlways with a slow fsync: appends queue behind the one being
	// committed; one cancelled while queued is withdrawn.
	mem := vfs.NewMem()
	s = openT(t, slowSyncFS(mem, 50*time.Millisecond), Options{Sync: SyncAlways})
	defer closeT(t, s)
	var ps []*Pending
	for i := range 3 {
		p, err := s.AppendSamplesAsync(ctx, "m", "s", []int64{day0 + int64(i)}, []float64{float64(i)})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	time.Sleep(10 * time.Millisecond) // the first is being committed, the others wait
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = ps[2].Wait(cctx)
	withdrawn := errors.Is(err, context.Canceled)
	if !withdrawn && err != nil {
		t.Fatalf("cancelled Wait: %v", err)
	}
	for _, p := range ps[:2] {
		if _, err := p.Wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	want := 3
	if withdrawn {
		want = 2
	}
	if n, err := s.Count("m"); err != nil || n != want {
		t.Fatalf("Count = %d, %v; want %d (withdrawn %v)", n, err, want, withdrawn)
	}
}
