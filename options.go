package tsq

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/internal/vfs"
)

// SyncPolicy says when appended records are fsynced. The zero value is
// SyncAlways.
type SyncPolicy uint8

const (
	// SyncAlways: Append returns after the records are fsynced. Appends
	// that arrive while an fsync runs are written together as one frame
	// and share the next fsync (group commit).
	SyncAlways SyncPolicy = iota
	// SyncInterval: Append returns once the records are in the stream's
	// in-memory frame, which is written when full, before any read of
	// this Store, and at least every Options.SyncInterval, when a
	// background goroutine also fsyncs. A crash loses at most about one
	// interval of acknowledged records.
	SyncInterval
	// SyncNever: as SyncInterval, but the interval tick only writes the
	// frame: the store fsyncs only when it seals a segment and at Close.
	SyncNever
)

func (p SyncPolicy) String() string {
	switch p {
	case SyncAlways:
		return "always"
	case SyncInterval:
		return "interval"
	case SyncNever:
		return "never"
	}
	return fmt.Sprintf("SyncPolicy(%d)", uint8(p))
}

// Defaults and bounds of Options.
const (
	DefaultSyncInterval    = 100 * time.Millisecond
	DefaultSegmentMaxBytes = 256 << 20
	// MinSegmentMaxBytes is the smallest SegmentMaxBytes accepted.
	MinSegmentMaxBytes = 1 << 10
	// DefaultCacheBytes is the default capacity of the block cache.
	DefaultCacheBytes = 64 << 20
	// DefaultStagingTTL is the default Options.StagingTTL.
	DefaultStagingTTL = 24 * time.Hour
	// NoCache as Options.CacheBytes disables the block cache.
	NoCache = -1
	// DefaultRetentionInterval is how often a writable Store applies
	// the streams' retention rules.
	DefaultRetentionInterval = time.Minute
	// NoRetentionLoop as Options.RetentionInterval disables the loop
	// (ApplyRetention still works).
	NoRetentionLoop = -1
)

// Options configure a Store. A nil *Options means every default; a zero
// field means that field's default.
type Options struct {
	// Sync is the durability policy of appends (default SyncAlways).
	Sync SyncPolicy
	// SyncInterval is the fsync period under SyncInterval (default
	// 100ms). Ignored under the other policies.
	SyncInterval time.Duration
	// SegmentMaxBytes: a segment rolls to a new file before a frame would
	// take it past this size (default 256 MiB, at least 1 KiB). A single
	// frame larger than the limit still gets a segment of its own.
	SegmentMaxBytes int64
	// BlockRows bounds the rows of one frame (default chunk.DefaultRows,
	// at most chunk.MaxRows). An append of more records writes several.
	BlockRows int
	// CacheBytes is the capacity in bytes of the block cache, which holds
	// the verified bytes of blocks read from segment files for all the
	// Store's streams (default DefaultCacheBytes, 64 MiB). NoCache
	// disables it; other negative values are invalid.
	CacheBytes int64
	// ReadOnly opens the store for reading only: it never creates,
	// writes, locks or truncates a file.
	ReadOnly bool
	// StagingTTL: GC removes an import's staging directory older than
	// this even while the import holds it (a hung import then fails at
	// commit). Default DefaultStagingTTL.
	StagingTTL time.Duration
	// FS is the file system (default vfs.Default, the OS).
	FS vfs.FS
	// RetentionInterval is the period of the maintenance loop that a
	// writable Store runs from Open to Close, applying every stream's
	// retention rule (default DefaultRetentionInterval, one minute;
	// NoRetentionLoop disables it; other negative values are invalid).
	RetentionInterval time.Duration
	// Compaction: see compaction.go. Unlike the other fields, a zero
	// CompactInterval disables background compaction entirely (no steady
	// passes, no live-set feeding or rebuild); CompactDefault selects the
	// default, 4h, which a nil *Options also gets.
	CompactInterval time.Duration
	// CompactTombstoneCap bounds the tombstones of one compaction chunk
	// and triggers an early pass when the live set reaches it (default
	// 32,000,000).
	CompactTombstoneCap int
	// CompactMinSpacing is the least time between two early passes
	// (default 30s).
	CompactMinSpacing time.Duration
	// CompactPageCache keeps the pages of the segments compaction
	// rewrites in the page cache. By default each part of a rewritten
	// segment leaves the cache once written back (RWF_DONTCACHE writes
	// on Linux 6.14 on, else posix_fadvise DONTNEED): a pass then holds
	// no more of the cache than the device has yet to take and evicts
	// nothing queries keep there, and the rewritten segments are read
	// from the device until cached again.
	CompactPageCache bool
	// CompactDirect writes the segments compaction rewrites past the
	// page cache where the system allows (O_DIRECT on Linux): none of
	// their pages enters the cache, but the writer waits for the device
	// on every write. At most one of CompactPageCache and CompactDirect
	// may be set.
	CompactDirect bool
	// Logger receives background errors (failed retention and compaction
	// passes), which are never fatal (default slog.Default()).
	Logger *slog.Logger

	// compactTwoPhase chooses how a single-chunk pass reads its window
	// (compact.Config.TwoPhase); tests set it.
	compactTwoPhase compact.TwoPhaseMode
}

// withDefaults returns a validated copy of o with its defaults filled in.
func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	} else {
		c.CompactInterval = CompactDefault
	}
	if err := c.compactionDefaults(); err != nil {
		return c, err
	}
	switch {
	case c.CacheBytes == 0:
		c.CacheBytes = DefaultCacheBytes
	case c.CacheBytes == NoCache:
		c.CacheBytes = 0 // newBlockCache makes none
	case c.CacheBytes < 0:
		return c, fmt.Errorf("%w: CacheBytes %d: use a positive size, 0 for the default or NoCache", ErrInvalidOptions, c.CacheBytes)
	}
	if c.Sync > SyncNever {
		return c, fmt.Errorf("%w: Sync %v: use SyncAlways, SyncInterval or SyncNever", ErrInvalidOptions, c.Sync)
	}
	switch {
	case c.SyncInterval < 0:
		return c, fmt.Errorf("%w: SyncInterval %v is negative", ErrInvalidOptions, c.SyncInterval)
	case c.SyncInterval == 0:
		c.SyncInterval = DefaultSyncInterval
	}
	switch {
	case c.SegmentMaxBytes == 0:
		c.SegmentMaxBytes = DefaultSegmentMaxBytes
	case c.SegmentMaxBytes < MinSegmentMaxBytes:
		return c, fmt.Errorf("%w: SegmentMaxBytes %d is below the minimum %d", ErrInvalidOptions, c.SegmentMaxBytes, MinSegmentMaxBytes)
	}
	switch {
	case c.BlockRows == 0:
		c.BlockRows = chunk.DefaultRows
	case c.BlockRows < 0 || c.BlockRows > chunk.MaxRows:
		return c, fmt.Errorf("%w: BlockRows %d is outside 1..%d", ErrInvalidOptions, c.BlockRows, chunk.MaxRows)
	}
	if c.FS == nil {
		c.FS = vfs.Default
	}
	switch {
	case c.RetentionInterval == 0:
		c.RetentionInterval = DefaultRetentionInterval
	case c.RetentionInterval < 0 && c.RetentionInterval != NoRetentionLoop:
		return c, fmt.Errorf("%w: RetentionInterval %v: use a positive period, 0 for the default or NoRetentionLoop", ErrInvalidOptions, c.RetentionInterval)
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.StagingTTL <= 0 {
		c.StagingTTL = DefaultStagingTTL
	}
	return c, nil
}
