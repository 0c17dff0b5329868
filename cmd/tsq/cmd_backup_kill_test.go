//go:build unix

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tsq "github.com/tsqdb/tsq"
)

// TestBackupSIGKILL kills `tsq backup` at random moments while this
// process appends to the store: each kill leaves either no backup or a
// whole one that verifies clean and holds every row acknowledged before
// the backup started; the store verifies clean; and a backup to the same
// place then succeeds, removing what the kill left.
func TestBackupSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := buildTSQ(t, dir)
	store := filepath.Join(dir, "s")
	s, err := tsq.Open(store, &tsq.Options{SegmentMaxBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 3))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for b := range 40 { // 2M samples of random values: about 16 MB
		times, values := make([]int64, 50_000), make([]float64, 50_000)
		for i := range times {
			times[i], values[i] = t0+int64(b*50_000+i)*int64(time.Second), rng.Float64()
		}
		if _, err := s.AppendSamples(ctx, "m", fmt.Sprintf("s%d", b%4), times, values); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	acked := uint64(0)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // a writer that goes on through every backup
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			seqs, err := s.Append(ctx, "ev", tsq.Record{Time: t0 + int64(i), Series: "w", Key: fmt.Sprint(i % 100), Fields: []tsq.Field{{Name: "i", Value: tsq.Int(int64(i))}}})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			acked = seqs[0]
			mu.Unlock()
		}
	}()
	defer func() {
		close(stop)
		wg.Wait()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	for {
		mu.Lock()
		n := acked
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// How long a whole backup takes, to kill within it (or just after).
	start := time.Now()
	if out, err := exec.Command(bin, "--store", store, "backup", filepath.Join(dir, "whole")).CombinedOutput(); err != nil {
		t.Fatalf("backup: %v %s", err, out)
	}
	full := time.Since(start)
	outcomes := map[string]int{}
	const kills = 10
	for k := range kills {
		dest := filepath.Join(dir, fmt.Sprintf("bak%d", k))
		mu.Lock()
		before := acked
		mu.Unlock()
		cmd := exec.Command(bin, "--store", store, "backup", dest)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once the copy runs (its partial directory exists), at a
		// random moment of it, or after it ended.
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
			if _, err := os.Stat(dest + ".tsq-backup-partial"); err == nil {
				break
			}
		}
		time.Sleep(time.Duration(rng.Int64N(3 * int64(full))))
		_ = cmd.Process.Kill()
		<-exited
		if _, err := os.Stat(dest); err == nil {
			outcomes["whole"]++
		} else {
			outcomes["none"]++
			if r := runTSQ(t, "", "--store", store, "backup", dest); r.code != 0 {
				t.Fatalf("kill %d: the next backup: %+v", k, r)
			}
			if _, err := os.Stat(dest + ".tsq-backup-partial"); err == nil {
				t.Fatalf("kill %d: the next backup left the partial directory", k)
			}
		}
		if r := runTSQ(t, "", "--store", dest, "verify"); r.code != 0 || !strings.HasSuffix(r.stdout, "no problems\n") {
			t.Fatalf("kill %d: verify the backup: %+v", k, r)
		}
		b, err := tsq.Open(dest, &tsq.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := b.Get("ev", before)
		if err != nil || rec.Seq != before {
			t.Fatalf("kill %d: seq %d, acknowledged before the backup started, is not in it: %+v %v", k, before, rec, err)
		}
		if n, err := b.Count("m"); err != nil || n != 2_000_000 {
			t.Fatalf("kill %d: stream m holds %d rows (%v)", k, n, err)
		}
		_ = b.Close()
	}
	if r := runTSQ(t, "", "--store", store, "verify"); r.code != 0 {
		t.Fatalf("verify the store: %+v", r)
	}
	t.Logf("a whole backup took %v; %d kills: %v", full, kills, outcomes)
}
