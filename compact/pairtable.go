package compact

import (
	"bytes"
	"hash/maphash"
)

// pairTable maps (series, key) pair keys (appendPair) to a uint64. It
// holds no pointer per entry: keys live in one byte arena, entries in one
// slice, and a map from the keys' 64-bit hash to the first entry of that
// hash (entries of colliding hashes are chained and compared byte for
// byte, so lookups are exact). About 40 bytes per entry plus the key
// bytes, and nothing for the garbage collector to scan.
type pairTable struct {
	seed  maphash.Seed
	hash  func(maphash.Seed, []byte) uint64 // maphash.Bytes; tests force collisions
	heads map[uint64]int32
	ents  []pairEnt
	keys  []byte
}

type pairEnt struct {
	off  uint64 // of the key in keys
	klen uint32
	next int32 // next entry of the same hash, -1 if none
	val  uint64
}

func newPairTable() *pairTable {
	return &pairTable{seed: maphash.MakeSeed(), hash: maphash.Bytes, heads: map[uint64]int32{}}
}

func (t *pairTable) key(e *pairEnt) []byte { return t.keys[e.off : e.off+uint64(e.klen)] }

// find returns the entry of pair, or nil, and pair's hash.
func (t *pairTable) find(pair []byte) (*pairEnt, uint64) {
	h := t.hash(t.seed, pair)
	i, ok := t.heads[h]
	for ok && i >= 0 {
		e := &t.ents[i]
		if bytes.Equal(t.key(e), pair) {
			return e, h
		}
		i = e.next
	}
	return nil, h
}

// get returns the value of pair.
func (t *pairTable) get(pair []byte) (uint64, bool) {
	if e, _ := t.find(pair); e != nil {
		return e.val, true
	}
	return 0, false
}

// set stores v for pair, over an old value only if replace(old). A table
// holds at most 2^31-1 entries (MaxTombstoneCap keeps snapshots far
// below).
func (t *pairTable) set(pair []byte, v uint64, replace func(old uint64) bool) {
	e, h := t.find(pair)
	if e != nil {
		if replace(e.val) {
			e.val = v
		}
		return
	}
	next, ok := t.heads[h]
	if !ok {
		next = -1
	}
	t.ents = append(t.ents, pairEnt{off: uint64(len(t.keys)), klen: uint32(len(pair)), next: next, val: v})
	t.keys = append(t.keys, pair...)
	t.heads[h] = int32(len(t.ents) - 1)
}

func (t *pairTable) len() int { return len(t.ents) }
