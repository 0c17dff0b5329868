package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tsq "github.com/tsqdb/tsq"
)

// syncBuffer is a bytes.Buffer safe to read while tail writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTail: tsq tail prints the last N records (matching --where) in
// seq order, one logfmt line each; with -f it prints the records another
// process appends, each once, until cancelled.
func TestTail(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	w, err := tsq.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	add := func(from, to int) {
		t.Helper()
		var recs []tsq.Record
		for i := from; i < to; i++ {
			recs = append(recs, tsq.Record{Time: int64(i) * 1e9, Series: []string{"a", "b"}[i%2], Fields: []tsq.Field{{Name: "n", Value: tsq.Int(int64(i))}}})
		}
		if len(recs) == 0 {
			return
		}
		if _, err := w.Append(context.Background(), "ev", recs...); err != nil {
			t.Fatal(err)
		}
	}
	add(0, 30)
	line := func(i int) string {
		return fmt.Sprintf("seq=%d time=%s series=%s key=\"\" op=put n=%d\n", i+1, time.Unix(int64(i), 0).UTC().Format(time.RFC3339), []string{"a", "b"}[i%2], i)
	}
	r := runTSQ(t, "", "--store", dir, "tail", "ev", "-n", "3")
	if r.code != 0 || r.stdout != line(27)+line(28)+line(29) {
		t.Fatalf("tail -n 3: %+v", r)
	}
	r = runTSQ(t, "", "--store", dir, "tail", "ev", "-n", "2", "--where", "series = 'a' AND n < 20")
	if r.code != 0 || r.stdout != line(16)+line(18) {
		t.Fatalf("tail --where: %+v", r)
	}
	if r := runTSQ(t, "", "--store", dir, "tail", "ev", "-n", "100", "--mode", "csv"); r.code != 0 || strings.Count(r.stdout, "\n") != 31 {
		t.Fatalf("tail -n 100: %+v", r)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	done := make(chan int)
	go func() {
		done <- run(ctx, e, []string{"--store", dir, "tail", "ev", "-n", "1", "-f", "--interval", "10ms"})
	}()
	want := line(29)
	for _, batch := range [][2]int{{30, 30}, {30, 31}, {31, 35}} { // the first: the last record, before any append
		add(batch[0], batch[1])
		for i := batch[0]; i < batch[1]; i++ {
			want += line(i)
		}
		for deadline := time.Now().Add(10 * time.Second); out.String() != want; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("tail -f printed\n%s\nwant\n%s\nstderr %s", out.String(), want, errb.String())
			}
		}
	}
	cancel()
	if code := <-done; code != 0 || out.String() != want {
		t.Fatalf("tail -f ended with %d, printed\n%s\nstderr %s", code, out.String(), errb.String())
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"tail"}, "name one stream"},
		{[]string{"tail", "nosuch"}, `stream "nosuch": stream not found`},
		{[]string{"tail", "ev", "--where", "nosuch > 1"}, `--where col 1: unknown column "nosuch"`},
		{[]string{"tail", "ev", "--mode", "xml"}, "unknown mode"},
		{[]string{"tail", "ev", "-n", "-1"}, "-n must be 0 or more"},
		{[]string{"tail", "ev", "-f", "--interval", "0s"}, "--interval positive"},
		{[]string{"tail", "ev", "evx"}, "name one stream"},
	} {
		if r := runTSQ(t, "", append([]string{"--store", dir}, c.args...)...); r.code == 0 || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%v: %+v", c.args, r)
		}
	}
}
