package tsq

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/internal/vfs"
)

var (
	modelSteps = flag.Int("model.steps", 10000, "steps of TestCompactModel")
	modelSeed  = flag.Uint64("model.seed", 0, "seed of TestCompactModel (0: from the clock)")
)

// oracle is the model of a stream's folded view: it applies every
// appended row and remembers the soft-deleted seqs.
type oracle struct {
	view    map[string]uint64 // fold() keys to the seq providing them
	deleted map[uint64]bool
	rows    []rowInfo // every row appended, seq order
}

func newOracle() *oracle { return &oracle{view: map[string]uint64{}, deleted: map[uint64]bool{}} }

func (o *oracle) append(rs []rowInfo) {
	for _, r := range rs {
		o.rows = append(o.rows, r)
		switch {
		case r.op == OpDrop:
			for k := range o.view {
				if strings.HasPrefix(k, r.series+"\x00") {
					delete(o.view, k)
				}
			}
		case r.op == OpDelete:
			delete(o.view, r.series+"\x00k"+r.key)
		case r.key == "":
			o.view[fmt.Sprintf("%s\x00s%d", r.series, r.seq)] = r.seq
		default:
			o.view[r.series+"\x00k"+r.key] = r.seq
		}
	}
}

// folded returns the view without soft-deleted rows.
func (o *oracle) folded() map[string]uint64 {
	out := make(map[string]uint64, len(o.view))
	for k, q := range o.view {
		if !o.deleted[q] {
			out[k] = q
		}
	}
	return out
}

// modelStore is the store under test with its file system.
type modelStore struct {
	t   *testing.T
	mem *vfs.MemFS
	s   *Store
	o   Options
	now int64 // the clock: record times and retention's now
}

func (m *modelStore) reopen(fsys *vfs.MemFS) {
	_ = m.s.Close()
	m.mem = fsys
	m.open()
}

// open opens the store on m.mem with the model's clock.
func (m *modelStore) open() {
	m.s = openT(m.t, m.mem, m.o)
	m.s.now = func() time.Time { return time.Unix(0, m.now) }
}

// TestCompactModel runs random sequences of appends (puts, updates,
// samples, deletes, drops), soft deletes, compaction passes, crashes
// (also in the middle of a pass) and reopens against an in-memory
// oracle: after every step the folded view equals the oracle's, and no
// read shows a soft-deleted row. Replay a failure with -model.seed.
func TestCompactModel(t *testing.T) {
	seed := *modelSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay: go test -run TestCompactModel -model.seed %d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	o := smallSegs
	o.SegmentMaxBytes, o.BlockRows = 32<<10, 512 // merged blocks: fewer decodes per scan
	o.CompactTombstoneCap = 1 + rng.IntN(200)
	o.RetentionInterval = NoRetentionLoop // the model applies retention itself
	o.compactTwoPhase = compact.TwoPhaseMode(rng.IntN(3))
	t.Logf("tombstone cap %d, two-phase mode %d", o.CompactTombstoneCap, o.compactTwoPhase)
	m := &modelStore{t: t, mem: vfs.NewMem(), o: o, now: day0}
	m.open()
	defer func() { _ = m.s.Close() }()
	or := newOracle()
	or.append(workloadOf(t, m.s, "ev", rng, 3, m.now, modelRecord)) // the stream exists from here on
	m.now += 3 * int64(time.Second)
	counts := map[string]int{}
	for step := range *modelSteps {
		var what string
		switch x := rng.IntN(1000); {
		case x < 760:
			what = "append"
			n := 1 + rng.IntN(3)
			or.append(workloadOf(t, m.s, "ev", rng, n, m.now, modelRecord))
			m.now += int64(n) * int64(time.Second)
		case x < 850:
			what = "softdelete"
			m.softDelete(rng, or)
		case x < 880:
			what = "retention"
			m.retention(rng, or)
		case x < 915:
			what = "compact"
			if _, err := m.s.Compact(ctx, "ev"); err != nil {
				t.Fatalf("seed %d step %d: compact: %v", seed, step, err)
			}
		case x < 940:
			what = "crash-in-pass"
			m.crashInPass(rng)
		case x < 980:
			what = "crash"
			m.reopen(m.mem.CrashClone())
		default:
			what = "reopen"
			m.reopen(m.mem)
		}
		counts[what]++
		raw := rawRows(t, m.s, "ev")
		for _, r := range raw {
			if or.deleted[r.seq] {
				t.Fatalf("seed %d step %d (%s): read shows soft-deleted seq %d", seed, step, what, r.seq)
			}
		}
		if n, err := m.s.Count("ev"); err != nil || n != len(raw) {
			t.Fatalf("seed %d step %d (%s): Count %d %v, scan %d", seed, step, what, n, err, len(raw))
		}
		if got, want := fold(raw), or.folded(); !mapsEqual(got, want) {
			checkView(t, fmt.Sprintf("seed %d step %d (%s)", seed, step, what), got, want)
		}
	}
	// Two passes with no append between remove every soft-deleted row
	// (the second starts from a W above them all): the bitmap is empty.
	for range 2 {
		if _, err := m.s.Compact(ctx, "ev"); err != nil {
			t.Fatalf("seed %d: final compact: %v", seed, err)
		}
	}
	st, err := m.s.stream("ev", false)
	if err != nil {
		t.Fatal(err)
	}
	if n := cardinality(st.deletedSnapshot()); n != 0 {
		t.Fatalf("seed %d: %d soft-deleted seqs left after two passes", seed, n)
	}
	raw := rawRows(t, m.s, "ev")
	checkView(t, fmt.Sprintf("seed %d final", seed), fold(raw), or.folded())
	// Nothing of a removed row stays on disk: the tokens the blocks
	// hold, as values or dictionary entries, are those of the rows read.
	want := map[string]bool{}
	for _, r := range raw {
		if r.op == OpPut {
			want[modelToken(r.time)] = true
		}
	}
	onDisk := tokensOnDisk(t, m.mem, "db/streams/ev", "tok")
	for tok := range onDisk {
		if !want[tok] {
			t.Fatalf("seed %d: token %s of removed rows only is still on disk", seed, tok)
		}
	}
	for tok := range want {
		if !onDisk[tok] {
			t.Fatalf("seed %d: token %s of a row read is not on disk: the check reads nothing", seed, tok)
		}
	}
	// Every segment's key span holds its keyed puts (compaction rules
	// segments out by it).
	checkSpansHoldKeys(t, m.mem, "db/streams/ev")
	t.Logf("steps by kind: %v; rows appended %d; %d tokens on disk", counts, len(or.rows), len(onDisk))
}

func mapsEqual(a, b map[string]uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// crashInPass crashes a pass at a random point and occurrence, then
// reopens what was durable.
func (m *modelStore) crashInPass(rng *rand.Rand) {
	points := compact.Points()
	p, nth := points[rng.IntN(len(points))], 1+rng.IntN(3)
	var (
		mu    sync.Mutex // rewrites of a chunk run in parallel
		clone *vfs.MemFS
		seen  int
	)
	setCrash(m.t, m.s, "ev", func(q compact.Point) error {
		mu.Lock()
		defer mu.Unlock()
		if q == p {
			if seen++; seen == nth {
				clone = m.mem.CrashClone()
				return errCrash
			}
		}
		return nil
	})
	_, err := m.s.Compact(ctx, "ev")
	setCrash(m.t, m.s, "ev", nil)
	if clone == nil {
		if err != nil {
			m.t.Fatalf("pass without crash failed: %v", err)
		}
		clone = m.mem.CrashClone() // the point was not reached: crash after
	} else if !errors.Is(err, errCrash) {
		m.t.Fatalf("crashed pass returned %v", err)
	}
	m.reopen(clone)
}

// modelRecord is randRecord with fewer tombstones (they are kept
// forever, and every step scans the stream). A put carries a token of
// its time (modelToken), which a few neighbours share: blocks keep the
// tokens as a dictionary.
func modelRecord(rng *rand.Rand, t int64) Record {
	series := fmt.Sprintf("s%d", rng.IntN(6))
	r := Record{Time: t, Series: series, Fields: []Field{{"v", Int(rng.Int64N(1000))}, {"tok", Str(modelToken(t))}}}
	switch x := rng.IntN(100); {
	case x < 55:
		r.Key = fmt.Sprintf("k%d", rng.IntN(8))
	case x < 88: // sample
	case x < 97:
		r.Op, r.Key = OpDelete, fmt.Sprintf("k%d", rng.IntN(8))
	default:
		r.Op = OpDrop
	}
	if r.Op == OpDelete || r.Op == OpDrop {
		r.Fields = r.Fields[:1]
	}
	return r
}

// modelToken is the token of the puts at time t: one per 4 seconds.
func modelToken(t int64) string { return fmt.Sprintf("t%d", t/int64(4*time.Second)) }
