package tsq

import (
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// Metrics is a snapshot of a Store's counters since Open.
type Metrics struct {
	Appends      uint64 // successful Append and AppendSamples calls
	Records      uint64 // records they stored
	BytesWritten uint64 // frame bytes written (headers and blocks)
	Frames       uint64 // frames written
	// Fsyncs counts fsyncs of appended data: group commits, interval
	// syncs, syncs at Close and before a delete. FsyncsMaintenance counts
	// every other fsync of a file or a directory: creating, sealing,
	// merging, compacting and importing segments, removing files, and
	// the index and state files. Their sum is every fsync of the store.
	Fsyncs, FsyncsMaintenance uint64
	// GroupCommits counts commit groups under SyncAlways: each writes the
	// appends that were waiting, as few frames as it can, and fsyncs once.
	GroupCommits uint64
	// GroupCommitMean is the mean number of appends per group commit;
	// GroupCommitMax the largest group.
	GroupCommitMean float64
	GroupCommitMax  uint64
	// Segments is the number of segment files of the open streams;
	// SegmentsRolled counts rolls (day change or size limit).
	Segments       int
	SegmentsRolled uint64
	// Recovery totals over the streams opened for writing.
	RecoveryTruncations    uint64 // active segments with a torn tail cut
	RecoveryTruncatedBytes uint64
	RecoveryDroppedFrames  uint64
	RecoveryRemovedFiles   uint64 // stale temp files, torn and empty segment files, segments after a damaged one
	// Recoveries holds each writable stream's Recovery, by stream name.
	Recoveries map[string]Recovery
	// AppendErrors counts commits that failed after validation (I/O).
	AppendErrors uint64
	// SyncErrors counts failed background fsyncs (SyncInterval); Close
	// returns the first of each stream.
	SyncErrors uint64
	// Merges counts sealed segments rewritten with their small frames
	// merged into BlockRows-row blocks; MergeErrors the failed attempts
	// (the segment stays as it was).
	Merges, MergeErrors uint64
	// Block cache (zero under NoCache), ristretto's
	// counters: CacheHits and CacheMisses count lookups, a hit including
	// a stale one; CacheEvictions the blocks evicted to make room;
	// CacheCostAdded and CacheCostEvicted the bytes admitted and evicted
	// (admitted minus evicted is about what it holds, less the entries
	// freed when a merged segment replaced their file). CacheSetsDropped
	// and CacheSetsRejected count insertions ristretto dropped (a full
	// buffer) or its admission policy refused. CacheStale counts hits
	// discarded because the cached CRC-32C differed from the index's.
	CacheHits, CacheMisses           uint64
	CacheEvictions                   uint64
	CacheCostAdded, CacheCostEvicted uint64
	CacheSetsDropped                 uint64
	CacheSetsRejected                uint64
	CacheStale                       uint64
	// Soft deletes and retention: SoftDeletedRows and
	// RetentionDeletedRows count rows soft-deleted by Delete and by
	// retention; RetentionPasses and RetentionErrors count retention runs
	// over one stream and the failed ones. DeletedRows is the
	// cardinality of the open streams' deleted bitmaps now;
	// TombstonedRows counts the puts known superseded and not yet
	// removed: the tombstoned bitmaps, and the puts the appends found
	// superseded since the last pass (it adds them to the bitmap).
	// Both shrink when compaction forgets removed rows.
	SoftDeletedRows, RetentionDeletedRows uint64
	RetentionPasses, RetentionErrors      uint64
	DeletedRows, TombstonedRows           uint64
}

// metrics are the live counters behind Metrics.
type metrics struct {
	appends, records, bytes, frames, fsyncs atomic.Uint64
	fsyncsAll                               atomic.Uint64 // every fsync (countingFS)
	groups, grouped, groupMax               atomic.Uint64
	rolled, appendErrors, syncErrors        atomic.Uint64
	merges, mergeErrors                     atomic.Uint64
	cacheStale                              atomic.Uint64
	softDeletes, retentionDeletes           atomic.Uint64
	retentionPasses, retentionErrors        atomic.Uint64

	mu                                            sync.Mutex
	truncations, truncBytes, dropped, removedFile uint64
}

func (m *metrics) noteRecovery(r *Recovery) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.TruncatedBytes > 0 {
		m.truncations++
		m.truncBytes += uint64(r.TruncatedBytes)
		m.dropped += uint64(r.DroppedFrames)
	}
	m.removedFile += uint64(len(r.RemovedTmp) + len(r.RemovedTorn) + len(r.RemovedEmpty) + len(r.RemovedLater))
}

func (m *metrics) noteGroup(n int) {
	m.groups.Add(1)
	m.grouped.Add(uint64(n))
	for {
		cur := m.groupMax.Load()
		if uint64(n) <= cur || m.groupMax.CompareAndSwap(cur, uint64(n)) {
			return
		}
	}
}

// Metrics returns a snapshot of the store's counters.
func (s *Store) Metrics() Metrics {
	m := &s.m
	out := Metrics{
		Appends: m.appends.Load(), Records: m.records.Load(), BytesWritten: m.bytes.Load(),
		Frames: m.frames.Load(), GroupCommits: m.groups.Load(),
		GroupCommitMax: m.groupMax.Load(), SegmentsRolled: m.rolled.Load(),
		AppendErrors: m.appendErrors.Load(), SyncErrors: m.syncErrors.Load(),
		Merges: m.merges.Load(), MergeErrors: m.mergeErrors.Load(), Recoveries: map[string]Recovery{},
	}
	if s.cache != nil {
		c := s.cache.stats()
		out.CacheHits, out.CacheMisses, out.CacheEvictions = c.hits, c.misses, c.evicted
		out.CacheCostAdded, out.CacheCostEvicted = c.costAdded, c.costEvicted
		out.CacheSetsDropped, out.CacheSetsRejected = c.dropped, c.rejected
	}
	out.CacheStale = m.cacheStale.Load()
	out.SoftDeletedRows, out.RetentionDeletedRows = m.softDeletes.Load(), m.retentionDeletes.Load()
	out.RetentionPasses, out.RetentionErrors = m.retentionPasses.Load(), m.retentionErrors.Load()
	// Data fsyncs are counted in both, after fsyncsAll: load them first.
	out.Fsyncs = m.fsyncs.Load()
	out.FsyncsMaintenance = m.fsyncsAll.Load() - out.Fsyncs
	if out.GroupCommits > 0 {
		out.GroupCommitMean = float64(m.grouped.Load()) / float64(out.GroupCommits)
	}
	m.mu.Lock()
	out.RecoveryTruncations, out.RecoveryTruncatedBytes = m.truncations, m.truncBytes
	out.RecoveryDroppedFrames, out.RecoveryRemovedFiles = m.dropped, m.removedFile
	m.mu.Unlock()
	s.mu.Lock()
	streams := make([]*stream, 0, len(s.streams))
	for _, st := range s.streams {
		streams = append(streams, st)
	}
	s.mu.Unlock()
	for _, st := range streams {
		if v := st.view.Load(); v != nil {
			out.Segments += len(v.segs)
		}
		out.DeletedRows += cardinality(st.deletedSnapshot())
		marked := st.tombstonedSnapshot()
		out.TombstonedRows += cardinality(marked)
		if st.writable {
			st.mu.Lock()
			out.Recoveries[st.name] = st.rec
			if st.cmp != nil && st.cmp.superseded != nil {
				found := st.cmp.superseded
				if marked != nil {
					found = roaring64.AndNot(found, marked)
				}
				out.TombstonedRows += found.GetCardinality()
			}
			st.mu.Unlock()
		}
	}
	return out
}
