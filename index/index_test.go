package index

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/codec"
	"github.com/tsqdb/tsq/internal/vfs"

	"github.com/tsqdb/tsq/internal/testdata"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sampleBitmap has an array container, a run container (after
// RunOptimize), a bitmap container and a second 64-bit bucket.
func sampleBitmap() *roaring64.Bitmap {
	bm := roaring64.BitmapOf(1, 2, 3, 1<<33)
	bm.AddRange(100000, 100010)
	for i := uint64(0); i < 5000; i++ {
		bm.Add(1<<20 + 2*i)
	}
	bm.RunOptimize()
	return bm
}

func TestBitmapRoundTrip(t *testing.T) {
	for name, bm := range map[string]*roaring64.Bitmap{
		"empty":  roaring64.New(),
		"one":    roaring64.BitmapOf(7),
		"sample": sampleBitmap(),
		"max":    roaring64.BitmapOf(0, 1<<63, ^uint64(0)),
		"norun": func() *roaring64.Bitmap {
			bm := roaring64.New()
			for i := uint64(0); i < 10000; i += 3 {
				bm.Add(i)
			}
			return bm
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			p, err := AppendBitmap([]byte("prefix"), bm)
			if err != nil {
				t.Fatal(err)
			}
			if string(p[:6]) != "prefix" {
				t.Fatal("AppendBitmap lost the dst prefix")
			}
			got, err := DecodeBitmap(p[6:], "x")
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !got.Equals(bm) {
				t.Fatalf("got %v, want %v", got, bm)
			}
		})
	}
}

func TestRuleRoundTrip(t *testing.T) {
	for _, r := range []Rule{
		{},
		{MaxAge: 24 * time.Hour},
		{MaxCount: 1000, ProtectField: "status", ProtectValues: []string{"open", "", "held"}},
	} {
		p, err := AppendRule(nil, &r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeRule(p, "x")
		if err != nil {
			t.Fatalf("decode %+v: %v", r, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(r) {
			t.Fatalf("got %+v, want %+v", got, r)
		}
	}
	for _, bad := range []Rule{
		{MaxAge: -1}, {MaxCount: -1}, {ProtectValues: []string{"x"}},
		{ProtectField: strings.Repeat("f", 256)},
		{ProtectField: "f", ProtectValues: make([]string, MaxProtected+1)},
		{ProtectField: "f", ProtectValues: []string{strings.Repeat("v", MaxProtectedLen+1)}},
	} {
		if _, err := AppendRule(nil, &bad); err == nil {
			t.Errorf("rule %.40v accepted", bad)
		}
	}
}

// TestGolden pins the bytes of a bitmap and a retention state file; see
// docs/FORMAT.md "State files". Run with -update to rewrite.
func TestGolden(t *testing.T) {
	rule := Rule{MaxAge: time.Hour, MaxCount: 5, ProtectField: "status", ProtectValues: []string{"open"}}
	rp, err := AppendRule(nil, &rule)
	if err != nil {
		t.Fatal(err)
	}
	bp, err := AppendBitmap(nil, func() *roaring64.Bitmap {
		bm := roaring64.BitmapOf(1, 2, 3, 1<<32|5)
		bm.AddRange(10, 20)
		bm.RunOptimize()
		return bm
	}())
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"deleted_v1.hex":   AppendFrame(nil, KindDeleted, 2, bp),
		"retention_v1.hex": AppendFrame(nil, KindRetention, 1, rp),
		"durable_v1.hex":   AppendFrame(nil, KindDurable, 42, nil),
		"retained_v1.hex":  AppendFrame(nil, KindRetained, 3, bp),
	} {
		testdata.Golden(t, filepath.Join("testdata", name), hex.Dump(b), *update)
		fr, err := DecodeFrame(b, name, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fr.Kind == KindDurable {
			if fr.Seq != 42 || len(fr.Payload) != 0 {
				t.Fatalf("%s: decoded seq %d, %d payload bytes", name, fr.Seq, len(fr.Payload))
			}
		} else if fr.Kind == KindRetention {
			if r, err := DecodeRule(fr.Payload, name); err != nil || fmt.Sprint(r) != fmt.Sprint(rule) {
				t.Fatalf("%s: decoded %+v, %v", name, r, err)
			}
		} else if bm, err := DecodeBitmap(fr.Payload, name); err != nil || bm.GetCardinality() != 14 {
			t.Fatalf("%s: decoded %v, %v", name, bm, err)
		}
	}
}

// TestCorruptFrame flips, truncates and extends a state file: every
// change is an error naming the file, matching ErrCorrupt, never a panic.
func TestCorruptFrame(t *testing.T) {
	p, _ := AppendBitmap(nil, sampleBitmap())
	good := AppendFrame(nil, KindDeleted, 9, p)
	check := func(name string, b []byte, want Kind) {
		t.Helper()
		_, err := DecodeFrame(b, "streams/x/deleted.bitmap", want)
		var ce *codec.CorruptionError
		if err == nil || !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.Path != "streams/x/deleted.bitmap" {
			t.Fatalf("%s: error %v", name, err)
		}
	}
	for i := 0; i < len(good); i += max(1, len(good)/200) {
		b := bytes.Clone(good)
		b[i] ^= 0x10
		check(fmt.Sprintf("flip %d", i), b, KindDeleted)
	}
	for _, n := range []int{0, 3, HeaderLen, HeaderLen + 3, len(good) - 1} {
		check(fmt.Sprintf("cut %d", n), good[:n], KindDeleted)
	}
	check("extended", append(bytes.Clone(good), 0), KindDeleted)
	check("wrong kind", good, KindTombstoned)
	if _, err := DecodeFrame(good, "x", KindDeleted); err != nil {
		t.Fatal(err)
	}
}

// TestCorruptBitmap changes payload bytes under a valid CRC: the
// structural check refuses them with an offset, or the bitmap decodes
// to some valid set; nothing panics.
func TestCorruptBitmap(t *testing.T) {
	p, _ := AppendBitmap(nil, sampleBitmap())
	refused := 0
	for i := range p {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := bytes.Clone(p)
			b[i] ^= x
			bm, err := DecodeBitmap(b, "f")
			if err != nil {
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "f at offset") {
					t.Fatalf("byte %d: error %v does not name the file and offset", i, err)
				}
				refused++
				continue
			}
			_ = bm.GetCardinality()
			if err := bm.Validate(); err != nil {
				t.Fatalf("byte %d ^%#x: accepted an invalid bitmap: %v", i, x, err)
			}
		}
	}
	t.Logf("%d of %d changes refused", refused, 3*len(p))
	huge := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	if _, err := DecodeBitmap(huge, "f"); err == nil {
		t.Fatal("huge bucket count accepted")
	}
	if _, err := DecodeBitmap(nil, "f"); err == nil {
		t.Fatal("empty payload accepted")
	}
}

func TestWriteReadFile(t *testing.T) {
	mem := vfs.NewMem()
	if err := mem.MkdirAll("d", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadBitmap(mem, "d/b", KindDeleted); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	bm := sampleBitmap()
	if err := WriteBitmap(mem, "d/b", KindDeleted, 3, bm, nil); err != nil {
		t.Fatal(err)
	}
	got, seq, err := ReadBitmap(mem, "d/b", KindDeleted)
	if err != nil || seq != 3 || !got.Equals(bm) {
		t.Fatalf("read back seq %d, %v", seq, err)
	}
	if names, _ := mem.ReadDir("d"); len(names) != 1 {
		t.Fatalf("files left: %v", names)
	}
	// Corrupt the file: the error names it.
	f, _ := mem.Create("d/b")
	f.Write([]byte("TSQI garbage that is long enough"))
	f.Close()
	if _, _, err := ReadBitmap(mem, "d/b", KindDeleted); err == nil || !strings.Contains(err.Error(), "d/b") {
		t.Fatalf("corrupt file: %v", err)
	}
}

// TestWriteCrash stops WriteFile at every crash point and crashes: the
// file holds the old or the new bitmap, whole.
func TestWriteCrash(t *testing.T) {
	old, neu := roaring64.BitmapOf(1, 2), roaring64.BitmapOf(1, 2, 3, 4)
	stop := errors.New("crash")
	for _, cp := range CrashPoints() {
		mem := vfs.NewMem()
		mem.MkdirAll("d", 0o755)
		mem.SyncDir(".")
		if err := WriteBitmap(mem, "d/b", KindDeleted, 1, old, nil); err != nil {
			t.Fatal(err)
		}
		err := WriteBitmap(mem, "d/b", KindDeleted, 2, neu, func(p CrashPoint) error {
			if p == cp {
				return stop
			}
			return nil
		})
		if err != stop {
			t.Fatalf("%s: %v", cp, err)
		}
		got, seq, err := ReadBitmap(mem.CrashClone(), "d/b", KindDeleted)
		if err != nil {
			t.Fatalf("%s: after crash: %v", cp, err)
		}
		if !(seq == 1 && got.Equals(old)) && !(seq == 2 && got.Equals(neu)) {
			t.Fatalf("%s: after crash seq %d %v", cp, seq, got)
		}
		if cp == CrashDirSynced && seq != 2 {
			t.Fatalf("durable write lost")
		}
	}
}

// TestWriteENOSPC fails each write step: a clear error, the temp file
// removed, the old file intact.
func TestWriteENOSPC(t *testing.T) {
	for _, kind := range []vfs.OpKind{vfs.OpCreate, vfs.OpWrite, vfs.OpSync, vfs.OpRename, vfs.OpSyncDir} {
		mem := vfs.NewMem()
		efs := vfs.NewErrorFS(mem)
		mem.MkdirAll("d", 0o755)
		if err := WriteBitmap(efs, "d/b", KindDeleted, 1, roaring64.BitmapOf(5), nil); err != nil {
			t.Fatal(err)
		}
		efs.FailAfter(kind, 0, syscall.ENOSPC, vfs.PartialWrite)
		err := WriteBitmap(efs, "d/b", KindDeleted, 2, sampleBitmap(), nil)
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "d/b") {
			t.Fatalf("%v: error %v", kind, err)
		}
		efs.Disarm()
		if names, _ := mem.ReadDir("d"); len(names) != 1 {
			t.Fatalf("%v: files left %v", kind, names)
		}
		got, seq, err := ReadBitmap(mem, "d/b", KindDeleted)
		if err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		if kind != vfs.OpSyncDir && (seq != 1 || !got.Equals(roaring64.BitmapOf(5))) {
			t.Fatalf("%v: old state lost: seq %d", kind, seq)
		}
	}
}

func TestRemoveStaleTmpAndReadSeq(t *testing.T) {
	mem := vfs.NewMem()
	mem.MkdirAll("d", 0o755)
	stop := errors.New("crash")
	if err := WriteBitmap(mem, "d/a", KindDeleted, 4, roaring64.BitmapOf(1), nil); err != nil {
		t.Fatal(err)
	}
	if seq, err := ReadSeq(mem, "d/a"); err != nil || seq != 4 {
		t.Fatalf("ReadSeq: %d, %v", seq, err)
	}
	err := WriteBitmap(mem, "d/a", KindDeleted, 5, roaring64.BitmapOf(2), func(p CrashPoint) error {
		if p == CrashTmpSynced {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatal(err)
	}
	removed, err := RemoveStaleTmp(mem, "d", "a", "b")
	if err != nil || len(removed) != 1 || removed[0] != filepath.Join("d", "a"+TmpSuffix) {
		t.Fatalf("removed %v, %v", removed, err)
	}
	if names, _ := mem.ReadDir("d"); len(names) != 1 {
		t.Fatalf("left %v", names)
	}
	if _, err := ReadSeq(mem, "d/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadSeq of a missing file: %v", err)
	}
}

// TestEmptyBucket: a bucket whose 32-bit bitmap is empty (roaring64
// never writes one) is accepted and dropped, so the result is valid.
func TestEmptyBucket(t *testing.T) {
	p, _ := AppendBitmap(nil, roaring64.BitmapOf(1<<32|7))
	// Insert an empty bucket with key 0 before it: key, cookie 12346, 0 containers.
	q := append([]byte{2, 0, 0, 0, 0, 0, 0, 0}, 0, 0, 0, 0, 0x3a, 0x30, 0, 0, 0, 0, 0, 0)
	q = append(q, p[8:]...)
	bm, err := DecodeBitmap(q, "f")
	if err != nil {
		t.Fatal(err)
	}
	if err := bm.Validate(); err != nil || !bm.Equals(roaring64.BitmapOf(1<<32|7)) {
		t.Fatalf("decoded %v, validate %v", bm, err)
	}
}

// TestTouchingRuns: runs [1,2] and [3,4] are refused (roaring keeps runs
// apart), as is an overlap.
func TestTouchingRuns(t *testing.T) {
	// 1 bucket, key 0; cookie 12347 (1 container); run flags 1; key 0,
	// cardinality 4; 2 runs: start 1 length 2, start x length 2.
	for _, x := range []byte{3, 2} {
		p := []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3b, 0x30, 0, 0, 1, 0, 0, 3, 0, 2, 0, 1, 0, 1, 0, x, 0, 1, 0}
		if _, err := DecodeBitmap(p, "f"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "runs") {
			t.Fatalf("second run at %d: %v", x, err)
		}
	}
	p := []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3b, 0x30, 0, 0, 1, 0, 0, 3, 0, 2, 0, 1, 0, 1, 0, 4, 0, 1, 0}
	if bm, err := DecodeBitmap(p, "f"); err != nil || bm.Validate() != nil || bm.GetCardinality() != 4 {
		t.Fatalf("runs [1,2] [4,5]: %v, %v", bm, err)
	}
}
