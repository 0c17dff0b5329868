// Package seg reads and writes segment files: the append-only files that
// hold a stream's blocks. A segment starts with a header naming its stream,
// generation and first seq; frames follow, one per chunk block, each with a
// checksummed frame header giving the block's length, rows and seq and
// time ranges; sealing appends a block index, a series bloom filter and a
// fixed-size footer. The byte layout is in docs/FORMAT.md ("Segment
// file").
//
// A segment is active while its Writer appends frames; Sync is the
// durability point. After a crash, OpenWriter reopens an unsealed segment,
// cuts a torn or corrupt tail and reports what it cut (Recovery). Seal
// makes a segment immutable; Rewrite replaces a sealed segment whole,
// crash-safely (temp file, fsync, rename, directory fsync), bumping its
// generation; RemoveStaleTmp deletes the temp files an interrupted Rewrite
// leaves. Reader.Verify checks every frame and block, as a file check
// does. seg only stores blocks: building, merging and filtering them is
// the caller's.
//
// Every file operation goes through a vfs.FS. Corruption is reported as a
// *codec.CorruptionError with Path (the file), Section ("segment header",
// "block 3 frame header", "block 3", "index", "bloom", "footer") and the
// file Offset; it matches chunk.ErrCorrupt with errors.Is.
//
// # Concurrency
//
// A Writer is not safe for concurrent use, and a segment has one Writer at
// a time (the store's lock file enforces it). Any number of Readers, in
// this process or another, may open a segment while it is written: a
// Reader sees the frames that were whole when it opened (a sealed
// segment's index once sealed) and never modifies the file. Reader
// methods other than Close are safe for concurrent use.
//
// Usage (error checks elided):
//
//	w, err := seg.Create(fsys, "cpu/000001.seg", "cpu", 1, firstSeq)
//	for _, b := range blocks { // chunk blocks in seq order
//		err = w.Append(b.bytes, seg.BlockMeta{Rows: b.rows,
//			MinSeq: b.minSeq, MaxSeq: b.maxSeq, MinTime: b.minTime, MaxTime: b.maxTime})
//		for _, s := range b.series {
//			w.AddSeries(s)
//		}
//		err = w.Sync() // durable: acknowledge the records
//	}
//	err = w.Seal()
//	err = w.Close()
//
//	r, err := seg.Open(fsys, "cpu/000001.seg")
//	defer r.Close()
//	if r.MayContainSeries(`cpu{host="a"}`) {
//		i := r.Find(seq) // first block with MaxSeq >= seq
//		buf, err = r.ReadBlock(i, buf)
//		// decode buf with chunk.Decoder
//	}
//
// and after a crash:
//
//	w, rec, err := seg.OpenWriter(fsys, "cpu/000001.seg")
//	log.Printf("cut %d bytes, %d frames: %v", rec.TruncatedBytes, rec.DroppedFrames, rec.Cause)
package seg
