package fuzz

import (
	"errors"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/index"
)

// FuzzIndexDecode feeds arbitrary bytes to the state file decoders: they
// return a value or an error matching index.ErrCorrupt, never panic; an
// accepted bitmap is valid and re-encodes to a file that decodes equal.
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzIndexDecode$' -fuzztime 60s
func FuzzIndexDecode(f *testing.F) {
	bm := roaring64.BitmapOf(1, 2, 3, 1<<40)
	bm.AddRange(1000, 5000)
	for i := uint64(0); i < 5000; i++ {
		bm.Add(1<<20 + 3*i)
	}
	bm.RunOptimize()
	p, _ := index.AppendBitmap(nil, bm)
	f.Add(index.AppendFrame(nil, index.KindDeleted, 1, p))
	p, _ = index.AppendBitmap(nil, roaring64.New())
	f.Add(index.AppendFrame(nil, index.KindTombstoned, 7, p))
	r := index.Rule{MaxAge: time.Hour, MaxCount: 3, ProtectField: "status", ProtectValues: []string{"open", "held"}}
	p, _ = index.AppendRule(nil, &r)
	f.Add(index.AppendFrame(nil, index.KindRetention, 2, p))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := index.DecodeFrame(b, "f", 0)
		if err != nil {
			if !errors.Is(err, index.ErrCorrupt) {
				t.Fatalf("error %v does not match ErrCorrupt", err)
			}
			return
		}
		// Also decode the payload as every kind, whatever the header says.
		if _, err := index.DecodeRule(fr.Payload, "f"); err != nil && !errors.Is(err, index.ErrCorrupt) {
			t.Fatalf("rule error %v", err)
		}
		got, err := index.DecodeBitmap(fr.Payload, "f")
		if err != nil {
			if !errors.Is(err, index.ErrCorrupt) {
				t.Fatalf("bitmap error %v", err)
			}
			return
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("accepted an invalid bitmap: %v", err)
		}
		q, err := index.AppendBitmap(nil, got)
		if err != nil {
			t.Fatal(err)
		}
		again, err := index.DecodeBitmap(q, "f")
		if err != nil || !again.Equals(got) {
			t.Fatalf("re-encoded bitmap does not decode equal: %v", err)
		}
	})
}

// FuzzIndexPayload fuzzes the payload decoders behind the CRC: arbitrary
// bytes give a valid bitmap or rule or an error matching ErrCorrupt.
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzIndexPayload$' -fuzztime 60s
func FuzzIndexPayload(f *testing.F) {
	// Small seeds (arrays and runs): the fuzzer stalls on 8 KiB bitmap
	// containers; TestCorruptBitmap in index covers those.
	bm := roaring64.BitmapOf(1, 2, 3, 1<<40, 1<<20+9)
	bm.AddRange(1000, 1100)
	for _, b := range []*roaring64.Bitmap{bm, roaring64.BitmapOf(5, 6, 7, 100)} {
		p, _ := index.AppendBitmap(nil, b)
		f.Add(p)
		b.RunOptimize()
		p, _ = index.AppendBitmap(nil, b)
		f.Add(p)
	}
	r := index.Rule{MaxAge: time.Hour, MaxCount: 3, ProtectField: "status", ProtectValues: []string{"open"}}
	p, _ := index.AppendRule(nil, &r)
	f.Add(p)
	f.Fuzz(func(t *testing.T, p []byte) {
		if _, err := index.DecodeRule(p, "f"); err != nil && !errors.Is(err, index.ErrCorrupt) {
			t.Fatalf("rule error %v", err)
		}
		got, err := index.DecodeBitmap(p, "f")
		if err != nil {
			if !errors.Is(err, index.ErrCorrupt) {
				t.Fatalf("bitmap error %v", err)
			}
			return
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("accepted an invalid bitmap: %v", err)
		}
		_ = got.GetCardinality()
	})
}
