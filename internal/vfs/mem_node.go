package vfs

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// memNode is a file or directory of a MemFS. Every field is guarded by the
// owning MemFS's mu. A node may be reachable from several directories'
// synced entries at once (a rename made durable in one parent only).
type memNode struct {
	dir     bool
	perm    os.FileMode
	modTime time.Time

	// Files. data is the current content, synced the content as of the last
	// File.Sync. synced is never written through, and it (or a CrashClone of
	// it) may share data's backing array: data[:frozen] must be copied
	// before any byte in it is written (see thaw).
	data   []byte
	synced []byte
	frozen int
	// lost are byte ranges of data whose write an fsync failed to make
	// durable (ErrorFS, LoseUnsynced): as Linux does after a failed
	// fsync, the pages read back fine but are clean, so no later sync
	// writes them; the disk keeps zeros there until they are written
	// again or truncated away.
	lost [][2]int

	// Directories: the current entries and the entries as of the last
	// SyncDir, by base name.
	children       map[string]*memNode
	syncedChildren map[string]*memNode
}

func newMemFile() *memNode { return &memNode{perm: 0o666, modTime: time.Now()} }

func newMemDir(perm os.FileMode) *memNode {
	return &memNode{
		dir:            true,
		perm:           perm.Perm(),
		modTime:        time.Now(),
		children:       map[string]*memNode{},
		syncedChildren: map[string]*memNode{},
	}
}

// writeAt writes p at off, zero-filling any gap past the end. Writing
// nothing changes nothing, as with write(2).
func (n *memNode) writeAt(p []byte, off int64) {
	if len(p) == 0 {
		return
	}
	if min(int(off), len(n.data)) < n.frozen {
		n.thaw()
	}
	if end := int(off) + len(p); end > len(n.data) {
		n.extend(end)
	}
	copy(n.data[off:], p)
	n.modTime = time.Now()
	n.unlose(int(off), int(off)+len(p))
}

// unlose drops [a, b) from the lost ranges: written again, it is dirty.
func (n *memNode) unlose(a, b int) {
	if len(n.lost) == 0 {
		return
	}
	var out [][2]int
	for _, r := range n.lost {
		if r[1] <= a || r[0] >= b {
			out = append(out, r)
			continue
		}
		if r[0] < a {
			out = append(out, [2]int{r[0], a})
		}
		if r[1] > b {
			out = append(out, [2]int{b, r[1]})
		}
	}
	n.lost = out
}

// loseUnsynced marks what was appended since the last sync as lost.
func (n *memNode) loseUnsynced() {
	if len(n.data) > len(n.synced) && string(n.data[:len(n.synced)]) == string(n.synced) {
		n.lost = append(n.lost, [2]int{len(n.synced), len(n.data)})
	}
}

// truncate sets the size, zero-filling when it grows.
func (n *memNode) truncate(size int64) {
	switch {
	case int(size) <= len(n.data):
		n.data = n.data[:size] // writes nothing: data[:frozen] stays frozen
		n.unlose(int(size), int(^uint(0)>>1))
	case len(n.data) < n.frozen:
		n.thaw()
		fallthrough
	default:
		n.extend(int(size))
	}
	n.modTime = time.Now()
}

// extend grows data to size with zeros; data[len(data):] must be writable.
func (n *memNode) extend(size int) {
	old := len(n.data)
	n.data = slices.Grow(n.data, size-old)[:size]
	clear(n.data[old:])
}

// thaw gives data a backing array of its own.
func (n *memNode) thaw() {
	n.data = slices.Clone(n.data)
	n.frozen = 0
}

// sync records the current content as durable, sharing data's array.
func (n *memNode) sync() {
	if len(n.lost) > 0 {
		s := slices.Clone(n.data)
		for _, r := range n.lost {
			clear(s[min(r[0], len(s)):min(r[1], len(s))])
		}
		n.synced = s
		return
	}
	n.synced = n.data[:len(n.data):len(n.data)]
	n.frozen = max(n.frozen, len(n.data))
}

// syncDir records the current entries as durable.
func (n *memNode) syncDir() { n.syncedChildren = maps.Clone(n.children) }

// info describes n under the base name of name.
func (n *memNode) info(name string) os.FileInfo {
	fi := &memFileInfo{name: filepath.Base(name), mode: n.perm, modTime: n.modTime}
	if n.dir {
		fi.mode |= fs.ModeDir
	} else {
		fi.size = int64(len(n.data))
	}
	return fi
}

// memFileInfo implements os.FileInfo for MemFS.
type memFileInfo struct {
	name    string
	size    int64
	mode    os.FileMode
	modTime time.Time
}

func (fi *memFileInfo) Name() string       { return fi.name }
func (fi *memFileInfo) Size() int64        { return fi.size }
func (fi *memFileInfo) Mode() os.FileMode  { return fi.mode }
func (fi *memFileInfo) ModTime() time.Time { return fi.modTime }
func (fi *memFileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *memFileInfo) Sys() any           { return nil }
