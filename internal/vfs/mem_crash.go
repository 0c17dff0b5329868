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

// crashClone copies the durable tree, giving each file the content
// survivor returns. survivor's result is shared, never written through.
func (m *MemFS) crashClone(survivor func(*memNode) []byte) *MemFS {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := &crashCloner{survivor: survivor, seen: map[*memNode]*memNode{}}
	return &MemFS{root: c.clone(m.root), locks: map[string]bool{}}
}

// crashCloner maps each durable node to its clone once, so that a node
// reachable under two names (a rename made durable in one parent only)
// stays one node, and a cycle of such renames terminates.
type crashCloner struct {
	survivor func(*memNode) []byte
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
	cn.children = make(map[string]*memNode, len(n.syncedChildren))
	for name, child := range n.syncedChildren {
		cn.children[name] = c.clone(child)
	}
	cn.syncDir()
	return cn
}
