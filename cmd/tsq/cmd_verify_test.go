package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// TestVerifyFlippedByte builds the demo store, flips one byte inside a
// block of one segment and checks that tsq verify names the file and the
// block, with an offset, and exits 1; the clean store passes.
func TestVerifyFlippedByte(t *testing.T) {
	dir := t.TempDir()
	if r := runTSQ(t, "", "--store", dir, "demo", "--no-shell"); !strings.Contains(r.stdout, "Built a demo store") {
		t.Fatalf("demo: %+v", r)
	}
	r := runTSQ(t, "", "--store", dir, "verify")
	if r.code != 0 || !strings.Contains(r.stdout, "no problems") {
		t.Fatalf("clean store: %+v", r)
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "streams", "cpu", "*.seg"))
	if len(segs) == 0 {
		t.Fatal("no cpu segments")
	}
	victim := segs[len(segs)/2]
	sr, err := seg.Open(vfs.Default, victim)
	if err != nil {
		t.Fatal(err)
	}
	blocks := sr.Blocks()
	sr.Close()
	last := len(blocks) - 1
	b := blocks[last]
	data, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	data[b.Offset+int64(seg.FrameHeaderLen)+int64(b.BlockLen()/2)] ^= 0x10
	if err := os.WriteFile(victim, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r = runTSQ(t, "", "--store", dir, "verify")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: %s", r.code, r.stdout)
	}
	rel, _ := filepath.Rel(dir, victim)
	want := regexp.MustCompile("(?m)^" + regexp.QuoteMeta(rel) + `: block \d+ at offset \d+: .*CRC`)
	if !want.MatchString(r.stdout) {
		t.Fatalf("output does not name %s and its block:\n%s", rel, r.stdout)
	}
	if !strings.Contains(r.stdout, "block "+itoa(last)+" at offset") {
		t.Fatalf("output does not name block %d:\n%s", last, r.stdout)
	}
	if !strings.HasSuffix(r.stdout, " checked: 1 problem\n") {
		t.Fatalf("output does not end with the count of problems:\n%s", r.stdout)
	}
}

func TestVerifyNoStore(t *testing.T) {
	r := runTSQ(t, "", "--store", filepath.Join(t.TempDir(), "none"), "verify")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "tsq: verify: no store at ") || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("%+v", r)
	}
}

func itoa(i int) string { return fmtInt(i) }

// TestVerifyJournalFlippedByte imports twice, flips one byte in the first
// record of the stream's import journal and checks that tsq verify names
// the journal, the record and its offset, and exits 1.
func TestVerifyJournalFlippedByte(t *testing.T) {
	store := filepath.Join(t.TempDir(), "s")
	for range 2 {
		src := writeEvents(t, 200, false)
		if r := runTSQ(t, "", "--store", store, "import", "--time", "ts", "--series", "acct", "--key", "id", "--op", "op", src); r.code != 0 {
			t.Fatalf("import: %+v", r)
		}
	}
	r := runTSQ(t, "", "--store", store, "verify")
	if r.code != 0 || !strings.Contains(r.stdout, "1 journal checked: no problems") {
		t.Fatalf("clean store: %+v", r)
	}
	p := filepath.Join(store, "streams", "orders", "JOURNAL")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[12+8+3] ^= 0x01 // in the first record's payload (its import id)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r = runTSQ(t, "", "--store", store, "verify")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: %s", r.code, r.stdout)
	}
	want := regexp.MustCompile(`(?m)^streams/orders/JOURNAL: record 0 at offset 12: checksum mismatch`)
	if !want.MatchString(r.stdout) {
		t.Fatalf("output does not name the journal record:\n%s", r.stdout)
	}
	t.Log(r.stdout)
}
