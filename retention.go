package tsq

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/seg"
)

// ErrInvalidRetention: a Retention rule is out of range.
var ErrInvalidRetention = errors.New("tsq: invalid retention rule")

// Retention is a stream's retention rule, applied as soft deletes by
// ApplyRetention and by the Store's maintenance loop. The zero Retention
// keeps everything.
//
// Retention never removes delete or drop rows (tombstones are kept
// forever) nor rows whose ProtectField holds one of ProtectValues; those
// still count as visible rows for MaxCount.
type Retention struct {
	// MaxAge: rows whose record time is before now-MaxAge are removed;
	// 0 = no age limit.
	MaxAge time.Duration
	// MaxCount: while more than MaxCount rows are visible (not
	// soft-deleted), the oldest removable ones (lowest seqs) are removed;
	// 0 = no count limit.
	MaxCount int64
	// ProtectField names a field (or the "series" or "key" column); rows
	// where its value, as text, is one of ProtectValues are never removed
	// by retention. Ints and floats compare in Go's shortest decimal form
	// (strconv 'g'), bools as "true"/"false", bytes as their bytes; a null
	// or missing value is not protected.
	ProtectField  string
	ProtectValues []string
}

// RetentionStats says what one ApplyRetention did.
type RetentionStats struct {
	// ByAge and ByCount are the rows soft-deleted for being older than
	// MaxAge and for being beyond MaxCount (a row both counts by age).
	ByAge, ByCount int64
	// Protected is the rows retention would have removed but for
	// ProtectValues.
	Protected int64
	// BlocksDecoded is the blocks whose columns were decoded.
	BlocksDecoded int64
}

func (r Retention) rule() index.Rule {
	return index.Rule{MaxAge: r.MaxAge, MaxCount: r.MaxCount, ProtectField: r.ProtectField,
		ProtectValues: slices.Clone(r.ProtectValues)}
}

func retentionOf(r *index.Rule) Retention {
	if r == nil {
		return Retention{}
	}
	return Retention{MaxAge: r.MaxAge, MaxCount: r.MaxCount, ProtectField: r.ProtectField,
		ProtectValues: slices.Clone(r.ProtectValues)}
}

// SetRetention sets the stream's retention rule, creating the stream if
// needed. The rule is persisted (written atomically, fsynced) before
// SetRetention returns; the zero Retention removes the limits.
func (s *Store) SetRetention(stream string, r Retention) error {
	if s.o.ReadOnly {
		return fmt.Errorf("tsq: stream %q: set retention: %w", stream, ErrReadOnly)
	}
	rule := r.rule()
	if err := rule.Check(); err != nil {
		return fmt.Errorf("tsq: stream %q: %w: %v", stream, ErrInvalidRetention, err)
	}
	st, err := s.stream(stream, true)
	if err != nil {
		return err
	}
	ss := &st.soft
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if st.dropped.Load() {
		return streamErr(stream, ErrStreamNotFound)
	}
	if err := index.WriteRule(s.fs, st.statePath(retentionFile), ss.ruleSeq+1, &rule, ss.hook); err != nil {
		return streamErr(stream, err)
	}
	ss.ruleSeq++
	ss.ruleStamp, _ = st.stampOf(retentionFile)
	ss.rule.Store(ruleOrNil(rule))
	return nil
}

func ruleOrNil(r index.Rule) *index.Rule {
	if r.MaxAge == 0 && r.MaxCount == 0 {
		return nil
	}
	return &r
}

// Retention returns the stream's retention rule (the zero Retention if
// none was set).
func (s *Store) Retention(stream string) (Retention, error) {
	st, err := s.stream(stream, false)
	if err != nil {
		return Retention{}, err
	}
	if !st.writable {
		if err := st.refreshSoft(); err != nil {
			return Retention{}, err
		}
	}
	return retentionOf(st.soft.rule.Load()), nil
}

// reloadRule reads the retention file if it changed since last loaded.
// Caller holds soft.mu.
func (st *stream) reloadRule() (bool, error) {
	ss := &st.soft
	stamp, err := st.stampOf(retentionFile)
	if err != nil || st.unchanged(retentionFile, stamp, ss.ruleStamp, ss.ruleSeq) {
		return false, err
	}
	var r index.Rule
	var seq uint64
	if stamp.found {
		r, seq, err = index.ReadRule(st.s.fs, st.statePath(retentionFile))
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err != nil {
			return false, streamErr(st.name, err)
		}
	}
	ss.rule.Store(ruleOrNil(r))
	ss.ruleSeq, ss.ruleStamp = seq, stamp
	return true, nil
}

// ApplyRetention soft-deletes the stream's rows that its retention rule
// removes (see Retention), relative to the current time, and returns what
// it did. The deletions are persisted before it returns.
func (s *Store) ApplyRetention(ctx context.Context, stream string) (RetentionStats, error) {
	if s.o.ReadOnly {
		return RetentionStats{}, fmt.Errorf("tsq: stream %q: apply retention: %w", stream, ErrReadOnly)
	}
	stats, err := s.applyRetention(ctx, stream)
	if err != nil {
		s.m.retentionErrors.Add(1)
	}
	return stats, err
}

func (s *Store) applyRetention(ctx context.Context, stream string) (RetentionStats, error) {
	st, err := s.stream(stream, false)
	if err != nil || st.soft.rule.Load() == nil {
		return RetentionStats{}, err
	}
	// Rows this pass may delete are durable first (SyncInterval,
	// SyncNever); see Delete.
	if err := st.syncFor(math.MaxUint64); err != nil {
		return RetentionStats{}, err
	}
	// The pass runs under softState.mu, from the view to the write: one
	// pass at a time (two passes counting from one view would each remove
	// the excess over MaxCount), and a row that a concurrent compaction
	// removes is either absent from the view or cleared by its forget.
	st.soft.mu.Lock()
	defer st.soft.mu.Unlock()
	del := st.deletedSnapshot()
	v, err := st.snapshot()
	if err != nil {
		return RetentionStats{}, err
	}
	rule := st.soft.rule.Load()
	if rule == nil {
		return RetentionStats{}, nil
	}
	s.m.retentionPasses.Add(1)
	p := retentionPass{st: st, v: v, del: del, rule: rule, add: roaring64.New(), spared: roaring64.New()}
	if err := p.run(ctx, s.now()); err != nil {
		return RetentionStats{}, err
	}
	if !p.add.IsEmpty() {
		if _, err := st.addDeleted(ctx, p.add, byRetention); err != nil {
			return RetentionStats{}, err
		}
	}
	p.stats.Protected = int64(p.spared.GetCardinality())
	return p.stats, nil
}

// retentionPass collects the seqs one ApplyRetention removes.
type retentionPass struct {
	st     *stream
	v      *view
	del    *roaring64.Bitmap // soft-deleted before the pass, nil if none
	rule   *index.Rule
	add    *roaring64.Bitmap // to delete
	spared *roaring64.Bitmap // protected rows that would have gone
	stats  RetentionStats
}

func (p *retentionPass) run(ctx context.Context, now time.Time) error {
	if p.rule.MaxAge > 0 {
		cutoff := now.UnixNano() - int64(p.rule.MaxAge)
		err := p.walk(ctx, func(m *seg.BlockMeta) bool { return m.MinTime < cutoff }, func(r *retRow) bool {
			if r.time < cutoff && p.mark(r) {
				p.stats.ByAge++
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	if p.rule.MaxCount > 0 {
		visible, err := p.st.visibleRows(p.v, p.del)
		if err != nil {
			return err
		}
		excess := visible - int64(p.add.GetCardinality()) - p.rule.MaxCount
		if excess <= 0 {
			return nil
		}
		return p.walk(ctx, func(*seg.BlockMeta) bool { return excess > 0 }, func(r *retRow) bool {
			if p.add.Contains(r.seq) {
				return true
			}
			if p.mark(r) {
				p.stats.ByCount++
				excess--
			}
			return excess > 0
		})
	}
	return nil
}

// mark adds r to the rows to delete unless it is a tombstone, protected
// or already deleted; it reports whether it did.
func (p *retentionPass) mark(r *retRow) bool {
	switch {
	case r.op != OpPut || (p.del != nil && p.del.Contains(r.seq)):
		return false
	case r.protected:
		p.spared.Add(r.seq)
		return false
	}
	p.add.Add(r.seq)
	return true
}

// retRow is one row as retention sees it.
type retRow struct {
	seq       uint64
	time      int64
	op        Op
	protected bool
}

// walk visits, oldest first, the rows of the blocks that want accepts,
// until row returns false. It decodes only the seq, time, op and
// protected columns.
func (p *retentionPass) walk(ctx context.Context, want func(*seg.BlockMeta) bool, row func(*retRow) bool) error {
	names := []string{colSeq, colTime, colOp}
	if p.rule.ProtectField != "" {
		names = append(names, p.rule.ProtectField)
	}
	protect := map[string]bool{}
	for _, v := range p.rule.ProtectValues {
		protect[v] = true
	}
	cols := make([]chunk.Column, len(names))
	for _, sf := range p.v.segs {
		for j := range sf.blocks {
			m := &sf.blocks[j]
			if m.Rows == 0 || !want(m) {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			found, err := p.st.decodeColumns(sf, j, names, cols)
			if err != nil {
				return err
			}
			p.stats.BlocksDecoded++
			seqs, times, ops := cols[0].Ints, cols[1].Ints, cols[2].Ints
			if !found[0] || !found[1] || !found[2] || len(times) != len(seqs) || len(ops) != len(seqs) {
				return fmt.Errorf("tsq: stream %q: %s block %d: %w: no int64 seq, time or op column", p.st.name, sf.path, j, chunk.ErrCorrupt)
			}
			var pc *chunk.Column
			if len(names) > 3 && found[3] {
				pc = &cols[3]
			}
			for k := range seqs {
				r := retRow{seq: uint64(seqs[k]), time: times[k], op: Op(ops[k])}
				r.protected = pc != nil && !pc.IsNull(k) && protect[textOf(pc, k)]
				if !row(&r) {
					return nil
				}
			}
		}
	}
	return nil
}

// textOf returns row i of c as ProtectValues compare it.
func textOf(c *chunk.Column, i int) string {
	switch c.Type {
	case chunk.String:
		return c.StringAt(i)
	case chunk.Bytes:
		return string(c.BytesAt(i))
	case chunk.Int64:
		return strconv.FormatInt(c.Ints[i], 10)
	case chunk.Float64:
		return strconv.FormatFloat(c.Floats[i], 'g', -1, 64)
	case chunk.Bool:
		return strconv.FormatBool(c.Bools[i])
	}
	return ""
}

// decodeColumns decodes the named columns of block i of sf into cols;
// found[k] says whether names[k] was there.
func (st *stream) decodeColumns(sf *segFile, i int, names []string, cols []chunk.Column) ([]bool, error) {
	data, err := st.readBlock(sf, i, cacheFill)
	if err != nil {
		return nil, err
	}
	var dec chunk.Decoder
	if err := dec.Reset(data); err != nil {
		return nil, fmt.Errorf("tsq: stream %q: %s block %d: %w", st.name, sf.path, i, err)
	}
	found := make([]bool, len(names))
	for k, name := range names {
		cols[k] = chunk.Column{}
		idx := dec.Find(name)
		if idx < 0 {
			continue
		}
		if k < 3 && dec.Info(idx).Type != chunk.Int64 {
			continue
		}
		if err := dec.Column(idx, &cols[k]); err != nil {
			return nil, fmt.Errorf("tsq: stream %q: %s block %d: %w", st.name, sf.path, i, err)
		}
		found[k] = true
	}
	return found, nil
}

// visibleRows counts the rows of v not in del (see Count).
func (st *stream) visibleRows(v *view, del *roaring64.Bitmap) (int64, error) {
	dels := newDeletedCursor(del)
	var n int64
	for _, sf := range v.segs {
		n += sumRows(sf.blocks)
		if del == nil {
			continue
		}
		for j := range sf.blocks {
			m := &sf.blocks[j]
			if m.Rows == 0 || !dels.any(m.MinSeq, m.MaxSeq) {
				continue
			}
			if contiguous(m) {
				n -= int64(dels.count(m.MinSeq, m.MaxSeq))
				continue
			}
			seqs, _, err := st.seqTimes(sf, j, false)
			if err != nil {
				return 0, err
			}
			for _, q := range seqs {
				if del.Contains(uint64(q)) {
					n--
				}
			}
		}
	}
	return n, nil
}
