// Package vfs is the file-system seam of tsq: every segment, index and store
// file is created, read, synced, renamed and removed through an FS, so that
// tests can swap the operating system for an in-memory file system that
// simulates power loss (MemFS) or for a wrapper that fails chosen operations
// (ErrorFS).
//
// # Implementations
//
//   - Default is the operating system, through package os.
//   - NewMem returns a MemFS that remembers what has been made durable and
//     can produce the state a crash would leave (CrashClone, CrashCloneTorn).
//   - NewErrorFS wraps any FS and fails the n-th operation of a kind
//     (FailAfter), counting the operations it sees (Ops).
//
// # Durability model
//
// Code written against FS must assume no more than this, which MemFS
// enforces and a POSIX file system provides:
//
//   - File.Sync makes a file's content and size durable, nothing else.
//   - SyncDir(dir) makes the entries of dir durable: files and directories
//     created, renamed into or out of, or removed from dir since its last
//     SyncDir. A new file whose parent was not synced is gone after a crash,
//     however often the file itself was synced.
//   - Rename atomically replaces newname; after a crash either the old or the
//     new entry is seen, the new one for sure only after SyncDir of its parent.
//     A crash-safe rewrite is therefore: write a temp file, File.Sync, Close,
//     Rename, SyncDir.
//   - Create on an existing name truncates that file in place: the truncation
//     is a content change, durable on File.Sync.
//
// # Names
//
// Paths are OS-style (build them with filepath.Join) and are cleaned with
// filepath.Clean before use; File.Name returns the cleaned name. Every
// "not found" error matches fs.ErrNotExist with errors.Is. Errors are
// *fs.PathError (*os.LinkError for Rename) as package os returns them,
// except a held lock, reported as a *LockError.
//
// # Concurrency
//
// Every FS here is safe for concurrent use by multiple goroutines. A File
// follows *os.File: ReadAt, Stat and Sync may be called concurrently; Read
// and Write move a shared offset, so concurrent callers of those on one File
// see an unspecified interleaving (each call is still atomic in MemFS).
//
// # Locks
//
// FS.Lock takes an exclusive advisory lock on a lock file, writing the
// holder's pid into it. A second Lock of the same file, from this process or
// another, fails at once with a *LockError that matches ErrLocked and names
// the file and the holder's pid. Closing the returned io.Closer releases the
// lock; the file stays.
//
// Usage, a crash-safe rewrite (error checks elided):
//
//	tmp := filepath.Join(dir, "seg.tmp")
//	f, err := fsys.Create(tmp)
//	_, err = f.Write(data)
//	err = f.Sync()
//	err = f.Close()
//	err = fsys.Rename(tmp, filepath.Join(dir, "seg"))
//	err = fsys.SyncDir(dir)
//
// and a test that fails each operation of it in turn, then crashes:
//
//	for _, kind := range vfs.OpKinds() {
//		for i := range counted.Ops(kind) { // counted: an ErrorFS over one clean run
//			mem := vfs.NewMem() // ... set up as before the run
//			efs := vfs.NewErrorFS(mem)
//			efs.FailAfter(kind, i, syscall.EIO, vfs.Sticky)
//			err := run(efs)            // must fail cleanly
//			check(mem.CrashClone())    // must hold the old or the new state
//		}
//	}
package vfs
