// Package index holds the small per-stream state files of tsq that are not
// segments: the roaring bitmaps of soft-deleted and tombstoned seqs and the
// stream's retention rule.
//
// Every state file is one frame (see docs/FORMAT.md, "State files"): a
// 24-byte header with magic, format version, kind, write sequence and
// payload length, the payload, and a CRC-32C of everything before it. A
// bitmap payload is a roaring64 bitmap in the portable serialization of
// the RoaringFormatSpec, checked structurally by this package before the
// roaring library sees it, so that arbitrary bytes give an error (never a
// panic) and decoding allocates at most a small multiple of the payload
// length.
//
// Files are replaced atomically with WriteFile: a temp file
// (path+TmpSuffix) is written and fsynced, renamed over path, and the
// directory fsynced. A crash leaves the old or the new file, and perhaps a
// stale temp file for the owner to remove.
//
// The functions are safe for concurrent use on different paths; writers of
// one path must be serialised by the caller.
//
//	bm := roaring64.BitmapOf(3, 4, 5)
//	err := index.WriteBitmap(fsys, "streams/ev/deleted.bitmap", index.KindDeleted, 1, bm, nil)
//	bm, seq, err := index.ReadBitmap(fsys, "streams/ev/deleted.bitmap", index.KindDeleted)
package index
