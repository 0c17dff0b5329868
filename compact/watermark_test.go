package compact

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestWatermarkGolden pins the bytes of a watermark file (docs/FORMAT.md,
// "Compaction watermark").
func TestWatermarkGolden(t *testing.T) {
	got := encodeWatermark(0x0102030405060708)
	want, err := os.ReadFile(filepath.Join("testdata", "watermark.golden"))
	if err != nil {
		t.Fatal(err)
	}
	want, err = hex.DecodeString(string(bytes.TrimSpace(want)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("watermark bytes\n got %x\nwant %x", got, want)
	}
	w, err := decodeWatermark(want, "golden")
	if err != nil || w != 0x0102030405060708 {
		t.Fatalf("decode golden: %d, %v", w, err)
	}
}

func TestWatermarkStoreLoad(t *testing.T) {
	fsys := vfs.NewMem()
	if err := fsys.MkdirAll("s", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fsys.SyncDir("."); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := LoadWatermark(fsys, "s"); ok || err != nil {
		t.Fatalf("missing file: ok %v err %v", ok, err)
	}
	w, err := InitWatermark(fsys, "s", 41)
	if err != nil || w != 41 {
		t.Fatalf("init: %d %v", w, err)
	}
	if w, err = InitWatermark(fsys, "s", 7); err != nil || w != 41 {
		t.Fatalf("init again must keep 41: %d %v", w, err)
	}
	if err := StoreWatermark(fsys, "s", 99); err != nil {
		t.Fatal(err)
	}
	// A crash right after keeps the new value: rename and dir are synced.
	c := fsys.CrashClone()
	if w, ok, err := LoadWatermark(c, "s"); !ok || err != nil || w != 99 {
		t.Fatalf("after crash: %d %v %v", w, ok, err)
	}
	if names, _ := c.ReadDir("s"); len(names) != 1 {
		t.Fatalf("files left: %v", names)
	}
}

func TestWatermarkCorrupt(t *testing.T) {
	good := encodeWatermark(5)
	for name, mut := range map[string]func([]byte) []byte{
		"short":    func(b []byte) []byte { return b[:19] },
		"long":     func(b []byte) []byte { return append(b, 0) },
		"magic":    func(b []byte) []byte { b[0] = 'X'; return b },
		"version":  func(b []byte) []byte { b[4] = 2; return b },
		"value":    func(b []byte) []byte { b[9] ^= 1; return b },
		"crc":      func(b []byte) []byte { b[19] ^= 0x80; return b },
		"reserved": func(b []byte) []byte { b[6] = 1; return b },
	} {
		b := mut(bytes.Clone(good))
		fsys := vfs.NewMem()
		_ = fsys.MkdirAll("s", 0o755)
		f, _ := fsys.Create("s/" + WatermarkFile)
		_, _ = f.Write(b)
		_ = f.Close()
		_, ok, err := LoadWatermark(fsys, "s")
		if ok || !errors.Is(err, ErrCorruptWatermark) {
			t.Errorf("%s: ok %v err %v, want ErrCorruptWatermark", name, ok, err)
		}
	}
}

func TestWatermarkStoreFailureKeepsOld(t *testing.T) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	_ = mem.MkdirAll("s", 0o755)
	if err := StoreWatermark(efs, "s", 3); err != nil {
		t.Fatal(err)
	}
	for _, k := range []vfs.OpKind{vfs.OpWrite, vfs.OpSync, vfs.OpRename} {
		efs.FailAfter(k, 0, nil)
		if err := StoreWatermark(efs, "s", 9); err == nil {
			t.Fatalf("%v: no error", k)
		}
		efs.Disarm()
		if w, ok, err := LoadWatermark(mem, "s"); !ok || err != nil || w != 3 {
			t.Fatalf("%v: watermark %d %v %v, want 3", k, w, ok, err)
		}
		if names, _ := mem.ReadDir("s"); len(names) != 1 {
			t.Fatalf("%v: files left: %v", k, names)
		}
	}
}

// FuzzDecodeWatermark: any bytes decode to a value or an error matching
// ErrCorruptWatermark, never a panic; what decodes re-encodes the same.
func FuzzDecodeWatermark(f *testing.F) {
	f.Add(encodeWatermark(0))
	f.Add(encodeWatermark(1<<63 + 5))
	f.Add([]byte("TSQW"))
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := decodeWatermark(b, "fuzz")
		if err != nil {
			if !errors.Is(err, ErrCorruptWatermark) {
				t.Fatalf("error %v does not match ErrCorruptWatermark", err)
			}
			return
		}
		if !bytes.Equal(encodeWatermark(w), b) {
			t.Fatalf("%x decodes to %d, which encodes differently", b, w)
		}
	})
}
