package progress

import (
	"bytes"
	"os"
	"testing"
)

// A bar for a writer that is not a terminal is nil and draws nothing; its
// methods are safe.
func TestNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, 100, "x", Bytes)
	if b != nil {
		t.Fatal("bar for a buffer")
	}
	b.SetTotal(10)
	b.Set(5)
	b.Done()
	if buf.Len() != 0 {
		t.Fatalf("wrote %q", buf.String())
	}
	f, err := os.CreateTemp(t.TempDir(), "p")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if New(f, -1, "x", Rows) != nil {
		t.Fatal("bar for a regular file")
	}
}
