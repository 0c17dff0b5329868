package compact

// WriteMode is how a pass writes the segments it rewrites
// (Config.Writes).
type WriteMode uint8

const (
	// WritesDropBehind writes through the page cache, each part's pages
	// dropped once written back (seg.RewriteDropBehind, uncached writes
	// where the system has them): the pass holds no more of the cache
	// than the device has yet to take, evicts nothing readers keep
	// there, and does not wait for the device while it writes.
	WritesDropBehind WriteMode = iota
	// WritesCached writes through the page cache and leaves the pages
	// there (seg.Rewrite).
	WritesCached
	// WritesDirect writes past the page cache where the system allows
	// (seg.RewriteDirect): the writer waits for the device.
	WritesDirect
)
