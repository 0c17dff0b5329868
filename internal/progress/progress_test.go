package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
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

// On a terminal the bar shows its title, the bytes done and the rate;
// Describe replaces the title.
func TestBarDraws(t *testing.T) {
	var buf bytes.Buffer
	b := newBar(&buf, 10<<20, "import x", Bytes)
	b.Describe("import x: 1.2k rows, 600 rows/s, heap 3.0 MiB")
	b.Set(5 << 20)
	time.Sleep(150 * time.Millisecond) // past the 100 ms throttle
	b.Set(6 << 20)
	out := buf.String()
	for _, want := range []string{"import x: 1.2k rows, 600 rows/s, heap 3.0 MiB", "6.3/10 MB", "MB/s", "60%"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output lacks %q: %q", want, out)
		}
	}
}
