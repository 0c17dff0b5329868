package tsq

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

func TestRoundTrip(t *testing.T) {
	for _, pol := range []SyncPolicy{SyncAlways, SyncInterval, SyncNever} {
		t.Run(pol.String(), func(t *testing.T) {
			fsys := vfs.NewMem()
			s := openT(t, fsys, Options{Sync: pol, BlockRows: 4})
			in := []Record{
				{Time: day0 + 1, Series: "a", Key: "k1", Op: OpPut, Fields: []Field{{"i", Int(-5)}, {"f", Float(math.Inf(-1))}, {"s", Str("x")}, {"b", Bool(true)}, {"y", Bytes([]byte{0, 1})}}},
				{Time: day0 + 2, Series: "a", Key: "k1", Op: OpDelete},
				{Time: day0 + 3, Series: "b", Fields: []Field{{"i", Int(7)}, {"n", Null()}}},
				{Time: day0 + 4, Series: "b", Op: OpDrop, Fields: []Field{{"reason", Str("sync")}}},
				{Time: day0 + 5, Series: "c", Fields: []Field{{"f", Float(2.5)}}},
				{Time: day0 + 6, Series: "c"},
			}
			seqs, err := s.Append(ctx, "ev", in...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(seqs, []uint64{1, 2, 3, 4, 5, 6}) {
				t.Fatalf("seqs = %v", seqs)
			}
			check := func(s *Store) {
				t.Helper()
				for i, q := range seqs {
					got, err := s.Get("ev", q)
					if err != nil {
						t.Fatalf("Get(%d): %v", q, err)
					}
					want := in[i]
					want.Seq = q
					if want.Op == 0 {
						want.Op = OpPut
					}
					want.Fields = slices.DeleteFunc(slices.Clone(want.Fields), func(f Field) bool { return f.Value.IsNull() })
					if len(want.Fields) == 0 {
						want.Fields = nil
					}
					slices.SortFunc(got.Fields, func(a, b Field) int { return cmpStr(a.Name, b.Name) })
					slices.SortFunc(want.Fields, func(a, b Field) int { return cmpStr(a.Name, b.Name) })
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("Get(%d) =\n%+v want\n%+v", q, got, want)
					}
				}
				if _, err := s.Get("ev", 7); !isNotFound(err) {
					t.Fatalf("Get(7) = %v", err)
				}
				if _, err := s.Get("ev", 0); !isNotFound(err) {
					t.Fatalf("Get(0) = %v", err)
				}
				if n, err := s.Count("ev"); err != nil || n != 6 {
					t.Fatalf("Count = %d, %v", n, err)
				}
				if got := allSeqs(t, s, "ev"); !reflect.DeepEqual(got, seqs) {
					t.Fatalf("scan = %v", got)
				}
				// trimmed scan: seqs 2..5, times up to day0+4 → 2,3,4
				var got []uint64
				for b, err := range s.Scan(ctx, "ev", ScanOptions{MinSeq: 2, MaxSeq: 5, MaxTime: day0 + 4}) {
					if err != nil {
						t.Fatal(err)
					}
					for i := range b.Rows {
						r := RecordAt(b, i)
						got = append(got, r.Seq)
						if r.Seq == 3 {
							if v, _ := r.Field("i"); v.Int() != 7 {
								t.Fatalf("trimmed record 3 = %+v", r)
							}
						}
					}
				}
				if !reflect.DeepEqual(got, []uint64{2, 3, 4}) {
					t.Fatalf("trimmed scan = %v", got)
				}
				if ids, err := s.OldestIDs("ev", 5); err != nil || !reflect.DeepEqual(ids, []uint64{1, 2, 3, 4, 5}) {
					t.Fatalf("OldestIDs = %v, %v", ids, err)
				}
				if ids, err := s.IDsOlderThan("ev", day0+3); err != nil || !reflect.DeepEqual(ids, []uint64{1, 2}) {
					t.Fatalf("IDsOlderThan = %v, %v", ids, err)
				}
				if ids, err := s.IDsOlderThan("ev", day0+100); err != nil || len(ids) != 6 {
					t.Fatalf("IDsOlderThan all = %v, %v", ids, err)
				}
			}
			check(s)
			closeT(t, s)

			s = openT(t, fsys, Options{Sync: pol, BlockRows: 4})
			check(s)
			// seqs continue across reopen
			first, err := s.AppendSamples(ctx, "ev", "cpu", []int64{day0 + 10, day0 + 11}, []float64{1.5, math.NaN()})
			if err != nil || first != 7 {
				t.Fatalf("AppendSamples = %d, %v", first, err)
			}
			r, err := s.Get("ev", 8)
			if v, _ := r.Field("value"); err != nil || !math.IsNaN(v.Float()) || r.Series != "cpu" || r.Op != OpPut {
				t.Fatalf("Get(8) = %+v, %v", r, err)
			}
			more, err := s.Append(ctx, "ev", rec(day0+12, "d", 1))
			if err != nil || more[0] != 9 {
				t.Fatalf("Append after reopen = %v, %v", more, err)
			}
			closeT(t, s)
			s = openT(t, fsys, Options{ReadOnly: true})
			defer closeT(t, s)
			if got := allSeqs(t, s, "ev"); len(got) != 9 || got[8] != 9 {
				t.Fatalf("read-only scan = %v", got)
			}
			names, _ := fsys.ReadDir(filepath.Join("db", "streams", "ev"))
			names = slices.DeleteFunc(names, func(n string) bool { return n == durableFile && pol != SyncAlways })
			if len(names) != 2 || names[0] != "2026-12-01-0000000000000001.seg" {
				t.Fatalf("files = %v", names)
			}
		})
	}
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func isNotFound(err error) bool {
	return err != nil && fmt.Sprint(err) != "" && errorsIs(err, ErrNotFound)
}
