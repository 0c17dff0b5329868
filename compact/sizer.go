package compact

// presizeMax bounds the entries a snapshot's table is sized for before
// a fold, from the window's seqs (a window of samples, which adds no
// entry, gets the table too, up to this size). Beyond it tableSizer
// sizes the table by projection.
const presizeMax = 1 << 19

// projectAfter is the rows of a large window seen before the table is
// sized by projection: enough to measure the rate, few entries to move.
const projectAfter = 1 << 16

// tableSizer sizes a record table as a fold fills it. A table grown
// step by step rehashes its entries many times (beyond smallShardLen a
// step is 5/4: grown to 8x, each entry moves about 4 times). A window of
// at most presizeMax rows gets its table at the start. A larger one
// starts with a table for projectAfter entries; once that many rows are
// seen, and again whenever the rows of the next block could take the
// table past the entries it is sized for, it is sized for the entries
// so far projected over the whole window at the rate the rows seen so
// far added them (when past its size, at least double), at most the
// cap while the entries are below it (past it, 1/8 more).
type tableSizer struct {
	window    int // bounds the rows of the window: its seqs, at most cap
	seen      int // rows of the window seen so far
	reserved  int // the entries the table is sized for
	cap       int
	projected bool
}

// start presizes the empty table t for a window of rows seqs.
func (z *tableSizer) start(t *hashTable, rows uint64, cap int) {
	z.window, z.cap = int(min(rows, uint64(cap))), cap
	z.reserved = z.window
	if z.window > presizeMax {
		z.reserved = projectAfter
	}
	t.presize(z.reserved)
}

// before makes room in t for a block of n rows of the window, which
// it then counts as seen, and reports whether it resized t. Nothing may
// write t meanwhile.
func (z *tableSizer) before(t *hashTable, n int) bool {
	defer func() { z.seen += n }()
	need := t.n + n
	project := !z.projected && z.window > presizeMax && z.seen >= projectAfter
	if need <= z.reserved && !project {
		return false
	}
	z.projected = z.projected || project
	est := need
	if need > z.reserved {
		est *= 2 // the projection fell short: at least double
	}
	if z.seen > 0 && z.window > z.seen {
		est = max(est, int(float64(t.n)*float64(z.window)/float64(z.seen)*1.05))
	}
	if need <= z.cap {
		est = min(est, z.cap)
	} else { // a chunk passes the cap by at most a block's rows
		est = min(est, need+need/8)
	}
	if est <= z.reserved {
		return false
	}
	z.reserved = est
	t.reserve(est)
	return true
}
