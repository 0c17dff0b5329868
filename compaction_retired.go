package tsq

import (
	"errors"
	"time"
)

// retiredGrace is how long a read handle of a file replaced by a rewrite
// stays open: a read through a view taken before the rewrite that runs
// longer fails with a closed-file error.
const retiredGrace = 10 * time.Minute

type retiredFile struct {
	f  closer
	at time.Time
}

// retire keeps f open for retiredGrace. Caller holds stream.mu.
func (c *streamCompaction) retire(f closer) {
	c.old = append(c.old, retiredFile{f, time.Now()})
}

// closeRetired closes the handles retired more than retiredGrace before
// now (all of them with a zero now: the stream closes). Caller holds
// stream.mu.
func (c *streamCompaction) closeRetired(now time.Time) error {
	var errs []error
	keep := c.old[:0]
	for _, r := range c.old {
		if now.IsZero() || now.Sub(r.at) > retiredGrace {
			errs = append(errs, r.f.Close())
		} else {
			keep = append(keep, r)
		}
	}
	clear(c.old[len(keep):])
	c.old = keep
	return errors.Join(errs...)
}
