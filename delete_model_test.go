package tsq

import (
	"errors"
	"flag"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

var (
	softSteps = flag.Int("soft.steps", 600, "steps of TestSoftDeleteModel")
	softSeed  = flag.Int64("soft.seed", 0, "seed of TestSoftDeleteModel (0: time)")
)

// softModel is the oracle of TestSoftDeleteModel: every stored row and
// which are soft-deleted.
type softModel struct {
	rows    []modelRow // in seq order
	deleted map[uint64]bool
}

type modelRow struct {
	seq    uint64
	time   int64
	op     Op
	status string
}

func (m *softModel) visible() []uint64 {
	var out []uint64
	for _, r := range m.rows {
		if !m.deleted[r.seq] {
			out = append(out, r.seq)
		}
	}
	return out
}

// retain applies r at now as ApplyRetention does.
func (m *softModel) retain(r Retention, now int64) {
	removable := func(x modelRow) bool {
		return x.op == OpPut && !m.deleted[x.seq] && !(r.ProtectField == "status" && slices.Contains(r.ProtectValues, x.status))
	}
	if r.MaxAge > 0 {
		for _, x := range m.rows {
			if x.time < now-int64(r.MaxAge) && removable(x) {
				m.deleted[x.seq] = true
			}
		}
	}
	if r.MaxCount > 0 {
		excess := int64(len(m.visible())) - r.MaxCount
		for _, x := range m.rows {
			if excess <= 0 {
				break
			}
			if removable(x) {
				m.deleted[x.seq] = true
				excess--
			}
		}
	}
}

// TestSoftDeleteModel runs random appends, deletes (some refused),
// retention rules, reopens and crashes against an in-memory oracle;
// after every step Scan, Count and OldestIDs agree with it.
// go test -run TestSoftDeleteModel -soft.steps 20000 for a long run.
func TestSoftDeleteModel(t *testing.T) {
	seed := *softSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("seed %d (replay: -soft.seed %d)", seed, seed)
	rng := rand.New(rand.NewSource(seed))
	mem := vfs.NewMem()
	now := day0 + 1000
	opts := Options{BlockRows: 1 + rng.Intn(8), SegmentMaxBytes: 1024 + int64(rng.Intn(4096)), RetentionInterval: NoRetentionLoop}
	open := func(fsys vfs.FS) *Store {
		s := openT(t, fsys, opts)
		s.now = func() time.Time { return time.Unix(0, now) }
		return s
	}
	s := open(mem)
	m := &softModel{deleted: map[uint64]bool{}}
	statuses := []string{"open", "closed", "held"}
	for step := range *softSteps {
		switch k := rng.Intn(20); {
		case k < 9: // append
			n := 1 + rng.Intn(4)
			var recs []Record
			for range n {
				now += int64(rng.Intn(5))
				r := Record{Time: now, Series: "a", Key: "k", Fields: []Field{{"status", Str(statuses[rng.Intn(3)])}}}
				if rng.Intn(10) == 0 {
					r.Op, r.Fields = OpDelete, nil
				}
				recs = append(recs, r)
			}
			seqs, err := s.Append(ctx, "ev", recs...)
			if err != nil {
				t.Fatalf("step %d: append: %v", step, err)
			}
			for i, q := range seqs {
				st := ""
				if len(recs[i].Fields) > 0 {
					st = recs[i].Fields[0].Value.Str()
				}
				m.rows = append(m.rows, modelRow{q, recs[i].Time, max(recs[i].Op, OpPut), st})
			}
		case k < 14 && len(m.rows) > 0: // delete
			var seqs []uint64
			bad := false
			for range 1 + rng.Intn(5) {
				r := m.rows[rng.Intn(len(m.rows))]
				seqs = append(seqs, r.seq)
				bad = bad || r.op != OpPut
			}
			if rng.Intn(8) == 0 {
				seqs, bad = append(seqs, m.rows[len(m.rows)-1].seq+1+uint64(rng.Intn(3))), true
			}
			err := s.Delete(ctx, "ev", seqs...)
			if bad {
				if !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrTombstoneRow) {
					t.Fatalf("step %d: Delete(%v) of a tombstone or unknown seq: %v", step, seqs, err)
				}
				break
			}
			if err != nil {
				t.Fatalf("step %d: Delete(%v): %v", step, seqs, err)
			}
			for _, q := range seqs {
				m.deleted[q] = true
			}
		case k < 16: // retention
			r := Retention{}
			if rng.Intn(2) == 0 {
				r.MaxAge = time.Duration(1 + rng.Intn(200))
			}
			if rng.Intn(2) == 0 || r.MaxAge == 0 {
				r.MaxCount = int64(1 + rng.Intn(60))
			}
			if rng.Intn(2) == 0 {
				r.ProtectField, r.ProtectValues = "status", statuses[:1+rng.Intn(2)]
			}
			if err := s.SetRetention("ev", r); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			if _, err := s.ApplyRetention(ctx, "ev"); err != nil {
				t.Fatalf("step %d: ApplyRetention %+v: %v", step, r, err)
			}
			m.retain(r, now)
		case k < 18: // reopen
			closeT(t, s)
			s = open(mem)
		default: // crash (SyncAlways: everything acknowledged survives)
			crashed := mem.CrashClone()
			closeT(t, s)
			mem = crashed
			s = open(mem)
		}
		if len(m.rows) == 0 {
			continue
		}
		want := m.visible()
		if got := allSeqs(t, s, "ev"); !slices.Equal(got, want) {
			t.Fatalf("step %d: Scan %v, model %v", step, got, want)
		}
		if n, err := s.Count("ev"); err != nil || n != len(want) {
			t.Fatalf("step %d: Count %d, %v; model %d", step, n, err, len(want))
		}
		if ids, err := s.OldestIDs("ev", 5); err != nil || !slices.Equal(ids, want[:min(5, len(want))]) {
			t.Fatalf("step %d: OldestIDs %v, %v", step, ids, err)
		}
	}
	closeT(t, s)
}
