package vfs

import (
	"bytes"
	"math/rand/v2"
)

// CrashClone returns a new MemFS holding what a power loss now would leave:
// the entries each directory had at its last SyncDir, starting from the
// root, and for each file the content it had at its last File.Sync. Locks
// and open files are not carried over; m is unchanged and stays usable.
func (m *MemFS) CrashClone() *MemFS {
	return m.crashClone(func(n *memNode) []byte { return n.synced })
}

// CrashCloneTorn is CrashClone where each file may also keep part of what
// was appended since its last Sync, as a torn write leaves: if the synced
// content is a prefix of the current content, the clone gets the synced
// content plus a prefix, of length drawn from rng, of the bytes after it.
// A file rewritten otherwise since its Sync (overwritten, truncated) gets
// its synced content. The same rng state gives the same clone.
func (m *MemFS) CrashCloneTorn(rng *rand.Rand) *MemFS {
	return m.crashClone(func(n *memNode) []byte {
		if len(n.data) == len(n.synced) || !bytes.HasPrefix(n.data, n.synced) {
			return n.synced
		}
		keep := len(n.synced) + rng.IntN(len(n.data)-len(n.synced)+1)
		return bytes.Clone(n.data[:keep])
	})
}

// CrashCloneDisordered is a harsher power loss, as a file system that
// commits metadata on its own and writes pages back in any order may
// leave: every directory keeps its current entries, synced or not, and
// each file whose content grew since its last Sync keeps either a prefix
// of the new bytes (as CrashCloneTorn) or all of them but one range,
// drawn from rng, that reads back as zeros (pages that never reached the
// disk). The same rng state gives the same clone.
func (m *MemFS) CrashCloneDisordered(rng *rand.Rand) *MemFS {
	return m.clone(true, func(n *memNode) []byte {
		if len(n.data) == len(n.synced) || !bytes.HasPrefix(n.data, n.synced) {
			return n.synced
		}
		tail := len(n.data) - len(n.synced)
		if rng.IntN(2) == 0 {
			return bytes.Clone(n.data[:len(n.synced)+rng.IntN(tail+1)])
		}
		out := bytes.Clone(n.data)
		lo := len(n.synced) + rng.IntN(tail)
		hi := lo + 1 + rng.IntN(min(tail-(lo-len(n.synced)), 4096))
		clear(out[lo:hi])
		return out
	})
}

// crashClone copies the durable tree, giving each file the content
// survivor returns. survivor's result is shared, never written through.
func (m *MemFS) crashClone(survivor func(*memNode) []byte) *MemFS {
	return m.clone(false, survivor)
}

// clone copies the tree (the durable entries, or the current ones if
// current), giving each file the content survivor returns.
func (m *MemFS) clone(current bool, survivor func(*memNode) []byte) *MemFS {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := &crashCloner{survivor: survivor, current: current, seen: map[*memNode]*memNode{}}
	return &MemFS{root: c.clone(m.root), locks: map[string]bool{}}
}

// crashCloner maps each durable node to its clone once, so that a node
// reachable under two names (a rename made durable in one parent only)
// stays one node, and a cycle of such renames terminates.
type crashCloner struct {
	survivor func(*memNode) []byte
	current  bool // clone the current entries, not the synced ones
	seen     map[*memNode]*memNode
}

func (c *crashCloner) clone(n *memNode) *memNode {
	if cn, ok := c.seen[n]; ok {
		return cn
	}
	cn := &memNode{dir: n.dir, perm: n.perm, modTime: n.modTime}
	c.seen[n] = cn
	if !n.dir {
		data := c.survivor(n)
		cn.data = data[:len(data):len(data)]
		cn.sync()
		return cn
	}
	entries := n.syncedChildren
	if c.current {
		entries = n.children
	}
	cn.children = make(map[string]*memNode, len(entries))
	for name, child := range entries {
		cn.children[name] = c.clone(child)
	}
	cn.syncDir()
	return cn
}
