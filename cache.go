package tsq

import (
	"fmt"
	"sync"

	"github.com/dgraph-io/ristretto/v2"
)

// The block cache holds the raw bytes of blocks as the read path reads
// them from segment files, after their CRC-32C was checked against the
// block's own trailer and the segment index: Get, Scan, OldestIDs and
// IDsOlderThan decode from it instead of reading the file again. It is a
// ristretto cache (TinyLFU admission, sampled LFU eviction) of at most
// Options.CacheBytes bytes, the cost of an entry being the length of its
// bytes. It belongs to one Store.
//
// Keys are a uint64 (ristretto hashes string keys, and a collision of
// two strings would go undetected; a uint64 key is its own hash):
//
//	bits 63..40  segment id   (24 bits) a process-unique id given to a segment
//	                                    file when the Store opens it
//	bits 39..24  generation   (16 bits) the low 16 bits of the segment
//	                                    header's generation
//	bits 23..0   block number (24 bits) the block's index in the segment
//
// Limits. Segment ids come from a process-wide counter (1..2^24-1, 0
// means "not cached"); an id is never handed out again while a stream
// that got it is open: it is released when the stream closes, and the
// counter skips ids still in use when it wraps. When every id is in use
// new segments are simply not cached. A segment keeps its id across
// rewrites (the generation tells them apart) until the low 16 bits of its
// generation wrap to 0, when the rewritten segment gets a fresh id. A
// block number of 2^24 or more (seg.MaxBlocks is 2^20) is not cached.
//
// The value keeps the block's CRC-32C next to the bytes. A hit whose CRC
// differs from the CRC the reader's index gives for the block is
// discarded (deleted, counted in Metrics.CacheStale) and the block is
// read from the file: a last guard should an id ever name two files.
//
// Invalidation. A merge (seg.Rewrite at seal) writes a new file with the
// generation + 1; the published segment carries the new generation, so
// reads of it build keys that no entry of the old file has. A read still
// running on the old view reads the old file and inserts under the old
// generation, the one it read, so it can never put old bytes under a key
// of the new file. When the merged segment is published the old
// generation's keys are deleted to free their space early.
//
// Only segments whose blocks never change under a given id are cached:
// every segment of a writable Store (published blocks are immutable;
// an in-place recovery reloads the segments with fresh ids) and the
// sealed segments of a read-only Store. A read-only Store's unsealed
// segment, rescanned whenever a writer in another process appends (and
// possibly truncated by that writer's recovery), is read uncached.

const (
	cacheIDBits    = 24
	cacheGenBits   = 16
	cacheBlockBits = 24

	maxCacheID    = 1<<cacheIDBits - 1
	cacheGenMask  = 1<<cacheGenBits - 1
	maxCacheBlock = 1<<cacheBlockBits - 1
)

// cacheKey packs a segment id, generation and block number.
func cacheKey(id uint32, gen uint64, block int) uint64 {
	return uint64(id)<<(cacheGenBits+cacheBlockBits) | (gen&cacheGenMask)<<cacheBlockBits | uint64(block)
}

// cachedBlock is a cache entry: verified block bytes and their CRC.
type cachedBlock struct {
	crc  uint32
	data []byte
}

// blockCache is a Store's block cache; a nil *blockCache caches nothing.
type blockCache struct {
	m *metrics
	// mu keeps close from running under a Get or Set: ristretto's Close
	// closes the channel a Set sends on. Readers take it shared.
	mu     sync.RWMutex
	c      *ristretto.Cache[uint64, cachedBlock] // nil once closed
	final  cacheStats                            // the counters at close
	closed bool
	bg     sync.WaitGroup // running forgets
}

// cacheStats are ristretto's counters.
type cacheStats struct {
	hits, misses, added, evicted, costAdded, costEvicted, dropped, rejected uint64
}

// newBlockCache returns a cache of at most maxBytes bytes, nil if
// maxBytes is 0.
func newBlockCache(maxBytes int64, m *metrics) (*blockCache, error) {
	if maxBytes <= 0 {
		return nil, nil
	}
	// ristretto wants about 10 counters per entry it may hold; assume
	// blocks of 4 KiB or more.
	counters := max(maxBytes/4096*10, 1000)
	c, err := ristretto.NewCache(&ristretto.Config[uint64, cachedBlock]{
		NumCounters:        counters,
		MaxCost:            maxBytes,
		BufferItems:        64,
		Metrics:            true,
		IgnoreInternalCost: true, // cost is exactly the block's bytes
	})
	if err != nil {
		return nil, fmt.Errorf("tsq: block cache: %w", err)
	}
	return &blockCache{c: c, m: m}, nil
}

// key returns the key of block i of sf and whether sf's blocks are cached.
func (c *blockCache) key(sf *segFile, i int) (uint64, bool) {
	if c == nil || sf.cacheID == 0 || i > maxCacheBlock || sf.blocks[i].Rows == 0 {
		return 0, false
	}
	return cacheKey(sf.cacheID, sf.gen, i), true
}

// get returns the cached bytes under key if their CRC is crc. The bytes
// are shared: callers must not modify them.
func (c *blockCache) get(key uint64, crc uint32) ([]byte, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil, false
	}
	v, ok := c.c.Get(key)
	if !ok {
		return nil, false
	}
	if v.crc != crc {
		c.c.Del(key)
		c.m.cacheStale.Add(1)
		return nil, false
	}
	return v.data, true
}

// set offers verified bytes to the cache; ristretto admits them (or not)
// asynchronously. data must never be modified afterwards.
func (c *blockCache) set(key uint64, crc uint32, data []byte) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.closed {
		c.c.Set(key, cachedBlock{crc: crc, data: data}, int64(len(data)))
	}
}

// forget deletes, in the background, the keys of every block of sf (a
// segment replaced by a rewrite): each delete is a send to ristretto's
// buffer, too many to make under the writer's mutex.
func (c *blockCache) forget(sf *segFile) {
	if c == nil || sf.cacheID == 0 {
		return
	}
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		c.forgetNow(sf)
	}()
}

func (c *blockCache) forgetNow(sf *segFile) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return
	}
	for i := range min(len(sf.blocks), maxCacheBlock+1) {
		if sf.blocks[i].Rows > 0 {
			c.c.Del(cacheKey(sf.cacheID, sf.gen, i))
		}
	}
}

// wait blocks until the cache has applied every Set and forget made so
// far (tests).
func (c *blockCache) wait() {
	if c == nil {
		return
	}
	c.bg.Wait()
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.closed {
		c.c.Wait()
	}
}

// stats returns ristretto's counters (as they were at close, once closed).
func (c *blockCache) stats() cacheStats {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return c.final
	}
	return c.statsLocked()
}

func (c *blockCache) statsLocked() cacheStats {
	m := c.c.Metrics
	return cacheStats{hits: m.Hits(), misses: m.Misses(), added: m.KeysAdded(), evicted: m.KeysEvicted(),
		costAdded: m.CostAdded(), costEvicted: m.CostEvicted(), dropped: m.SetsDropped(), rejected: m.SetsRejected()}
}

// close stops ristretto's goroutines and frees the entries, keeping the
// counters for Metrics.
func (c *blockCache) close() {
	if c == nil {
		return
	}
	c.bg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.final = c.statsLocked()
	c.closed = true
	c.c.Close()
	c.c = nil
}

// segIDs hands out the process-unique segment ids of cache keys.
var segIDs = idAllocator{used: map[uint32]struct{}{}}

type idAllocator struct {
	mu   sync.Mutex
	last uint32
	used map[uint32]struct{}
}

// alloc returns an id not in use, 0 if all are.
func (a *idAllocator) alloc() uint32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.used) >= maxCacheID {
		return 0
	}
	for {
		a.last++
		if a.last > maxCacheID {
			a.last = 1
		}
		if _, busy := a.used[a.last]; !busy {
			a.used[a.last] = struct{}{}
			return a.last
		}
	}
}

func (a *idAllocator) release(ids []uint32) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, id := range ids {
		delete(a.used, id)
	}
}

// streamIDs are the segment ids a stream holds until it closes.
type streamIDs struct {
	mu  sync.Mutex
	ids []uint32
}

// newCacheID returns a fresh segment id for a segment of st, 0 when the
// store has no cache or no id is free.
func (st *stream) newCacheID() uint32 {
	if st.s.cache == nil {
		return 0
	}
	id := segIDs.alloc()
	if id != 0 {
		st.ids.mu.Lock()
		st.ids.ids = append(st.ids.ids, id)
		st.ids.mu.Unlock()
	}
	return id
}

// releaseCacheIDs gives the stream's ids back (at close, when no segment
// file of the stream is open any more).
func (st *stream) releaseCacheIDs() {
	st.ids.mu.Lock()
	ids := st.ids.ids
	st.ids.ids = nil
	st.ids.mu.Unlock()
	segIDs.release(ids)
}
