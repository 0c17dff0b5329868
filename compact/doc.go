// Package compact physically removes what a stream's tombstones and soft
// deletes made droppable, online and crash-safely, with bounded memory.
//
// Rows are read from sealed segment files (package seg) through the
// record columns every block carries: "seq" (int64), "series" and "key"
// (string) and "op" (int64: 1 put, 2 delete, 3 drop). Semantics, with
// strict inequality everywhere:
//
//   - a put with a key is superseded by a later put or delete of the same
//     (series, key);
//   - a delete is a record tombstone, a drop a series tombstone: every
//     earlier put of the series, keyed or sample, is droppable;
//   - tombstone rows are never dropped for being superseded; samples (puts
//     without a key) are removed only by a drop or a soft delete.
//
// A soft-deleted row still supersedes what it superseded (history does
// not resurrect): samples that are soft deleted are removed at once, any
// other soft-deleted row only once it lies at or below the watermark the
// pass started from, when everything it superseded is already gone.
//
// # The watermark
//
// W is the highest seq a pass has covered: below W every superseded row
// is physically gone. It lives in the stream directory in the file
// WATERMARK (docs/FORMAT.md, "Compaction watermark"), written atomically
// (temp file, fsync, rename, directory fsync). Only the rows in (W, tip]
// may still hold rows a later tombstone kills.
//
// # A pass
//
// Run targets the largest seq of the sealed segments it is given (never
// an active one) and walks (W, target] in chunks. When the window cannot
// hold more tombstones than the cap (target-W at most the cap) it is one
// chunk, and folding and deciding are one read of the window, newest row
// first (see single.go): a row is decided when every row above it was
// observed, with one table operation (the home slots of the next 64 rows
// prefetched meanwhile: prefetch_amd64.s), blocks are read, decoded and
// hashed ahead by Workers goroutines, a block that loses rows is re-encoded as
// soon as it is decided, and each segment is rewritten as soon as its
// first block is decided; the segments at or below W are then decided
// with the finished snapshot. A fresh block (its keys strictly increase
// and miss the key spans of every older block and segment) only looks
// its keys up: keys that grow with time keep the table to the keys that
// return. When at most half the window's rows are in blocks that are
// not fresh, the window is read in two phases instead (twophase.go):
// the tombstones of those blocks first (and the op columns of the
// fresh ones, for series drops), then each segment in file order, its
// rewrite writing each block as soon as it is decided (and copying the
// untouched blocks before one not yet decided), with a filter of the
// table's hashes in front of its lookups (hashfilter.go); a fresh block
// whose span holds no listed tombstone key is decided without the
// table, and so is one whose span holds some: only the rows with those
// keys can drop, and the tombstones listed with the keys decide them
// (tombKeys.hitTombs, folder.decideHits). Otherwise each chunk folds its
// tombstones from the sealed rows on disk in (current, chunkEnd] — never
// from the in-memory live set, which collapses keys to their global
// maximum — and stops the chunk at the block where the snapshot reaches
// the tombstone cap. Segments are prefiltered by their series bloom
// unless the chunk names more than BloomCutoff series, and by their key
// span (seg.KeySpan) against the chunk's record tombstones' keys unless
// a dropped series may be in them (tombkeys.go), then rewritten by
// up to Workers goroutines, each segment atomically by seg.Rewrite (its
// pages dropped from the cache as they are written back: Config.Writes) with
// its block topology kept (an emptied block stays as a frame of 0
// rows; filtered blocks are re-encoded with their columns' encodings,
// untouched ones already decided copied as their frames).
// After each rewrite OnRewritten refreshes the caller's metadata from
// the new file's as written (seg.Meta);
// then W = chunkEnd is committed and the live set evicted up to it. A
// cancelled context or any failure leaves W where the work done ends.
package compact
