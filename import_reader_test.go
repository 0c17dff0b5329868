package tsq

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"testing/iotest"
	"time"
)

// A cancelReader returns the input's bytes and error unchanged, in
// pieces of any size.
func TestCancelReaderPassesThrough(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef\n"), 10000)
	r := newCancelReader(context.Background(), iotest.HalfReader(io.MultiReader(bytes.NewReader(data[:1000]), iotest.OneByteReader(bytes.NewReader(data[1000:])))), 4096)
	got, err := io.ReadAll(iotest.DataErrReader(r))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d of %d bytes, err %v", len(got), len(data), err)
	}
	boom := errors.New("boom")
	r = newCancelReader(context.Background(), iotest.ErrReader(boom), 4096)
	if _, err := r.Read(make([]byte, 10)); err != boom {
		t.Fatalf("err %v", err)
	}
}

// A Read blocked on the input returns at cancellation; the input's late
// bytes go to the reader's own buffer, not the caller's.
func TestCancelReaderStopsBlockedRead(t *testing.T) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	r := newCancelReader(ctx, pr, 4096)
	p := make([]byte, 100)
	done := make(chan error, 1)
	go func() { _, err := r.Read(p); done <- err }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked after cancel")
	}
	pw.Write([]byte("late")) // the pending input Read takes it
	if !bytes.Equal(p, make([]byte, 100)) {
		t.Fatalf("caller's buffer written after cancel: %q", p[:10])
	}
	if _, err := r.Read(p); !errors.Is(err, context.Canceled) {
		t.Fatalf("read after cancel: %v", err)
	}
}
