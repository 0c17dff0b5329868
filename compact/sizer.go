package compact

// presizeMax bounds the entries a snapshot's table is sized for before
// a fold, from the window's seqs (a window of samples, which adds no
// entry, gets the table too, up to this size). Beyond it tableSizer
// sizes the table by projection.
const presizeMax = 1 << 19

// tableSizer sizes a record table as a fold fills it. A table grown
// step by step rehashes its entries many times (beyond smallShardLen a
// step is 5/4: grown to 8x, each entry moves about 4 times); instead,
// when the rows of the next block could take the table past the entries
// it is sized for, it is sized once for the entries so far projected
// over the whole window at the rate the rows seen so far added them
// (at least a growth step), at most the cap while the entries are
// below it.
type tableSizer struct {
	window   int // bounds the rows of the window: its seqs, at most cap
	seen     int // rows of the window seen so far
	reserved int // the entries the table is sized for
	cap      int
}

// start presizes the empty table t for a window of rows seqs.
func (z *tableSizer) start(t *hashTable, rows uint64, cap int) {
	z.window, z.cap = int(min(rows, uint64(cap))), cap
	z.reserved = min(z.window, presizeMax)
	t.presize(z.reserved)
}

// before makes room in t for a block of n rows of the window, which
// it then counts as seen, and reports whether it resized t. Nothing may
// write t meanwhile.
func (z *tableSizer) before(t *hashTable, n int) bool {
	defer func() { z.seen += n }()
	need := t.n + n
	if need <= z.reserved {
		return false
	}
	est := need + need/4 // at least a growth step
	if z.seen > 0 && z.window > z.seen {
		est = max(est, int(float64(t.n)*float64(z.window)/float64(z.seen)*1.05))
	}
	if need <= z.cap {
		est = min(est, z.cap)
	}
	z.reserved = est
	t.reserve(est)
	return true
}
