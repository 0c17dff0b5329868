package query

import (
	"math"
	"time"
)

// bucketer places times in the buckets of GROUP BY time(d[, offset][,
// 'zone']): intervals of width d starting at k*d + offset after the
// Unix epoch, on the UTC clock, or, with a zone, on its local wall
// clock, so that time(1d, 'Europe/Berlin') buckets start at Berlin
// midnight and a day of a daylight-saving change lasts 23 or 25 hours. A
// bucket's key is its start: the instant its first local wall time
// names (a wall time a change skips is taken as Go's time.Date takes it;
// a repeated hour is one bucket).
type bucketer struct {
	d, offset int64 // offset in [0, d)
	months    int   // calendar buckets of this many months (d then approximates them)
	// monthFrom is a month (year*12 + month-1) that starts a calendar
	// bucket: 0 for GROUP BY time(), year 0; 2000-01 for time_bucket
	monthFrom int64
	loc       *time.Location
	text      string // as written: time(1d, 6h, 'America/New_York')
}

func newBucketer(d, offset int64, loc *time.Location, text string) *bucketer {
	offset %= d
	if offset < 0 {
		offset += d
	}
	return &bucketer{d: d, offset: offset, loc: loc, text: text}
}

// span returns the times around t that share its bucket, [lo, hi): on
// a clock without zone the bucket; on a zone's clock the part of it in
// t's zone period (a repeated wall time puts two spans in one bucket).
// At the ends of int64 the first and last buckets are cut there.
func (b *bucketer) span(t int64) (lo, hi int64) {
	switch {
	case b.months > 0 && localRange(t):
		lo = b.key(t)
		hi = b.next(lo)
		if b.loc == nil {
			return lo, hi
		}
	case b.loc == nil || !localRange(t):
		return b.fixed(t)
	default:
		_, off := time.Unix(0, t).In(b.loc).Zone()
		o := int64(off) * 1e9
		wlo, whi := b.fixed(t + o)
		lo, hi = wlo-o, whi-o
	}
	// Within t's zone period, where the wall clock runs on.
	zs, ze := time.Unix(0, t).In(b.loc).ZoneBounds()
	if !zs.IsZero() && localRange(zs.UnixNano()) {
		lo = max(lo, zs.UnixNano())
	}
	if !ze.IsZero() && localRange(ze.UnixNano()) {
		hi = min(hi, ze.UnixNano())
	}
	return lo, hi
}

// key returns t's bucket: its start, on a zone's clock the instant its
// first wall time names.
func (b *bucketer) key(t int64) int64 {
	if b.months > 0 && localRange(t) {
		y, m, _ := time.Unix(0, t).In(b.location()).Date()
		i := b.monthFrom + floorDiv(int64(y)*12+int64(m)-1-b.monthFrom, int64(b.months))*int64(b.months)
		return wallStart(int(floorDiv(i, 12)), time.Month(i-floorDiv(i, 12)*12+1), 1, 0, 0, 0, 0, b.location())
	}
	if b.loc == nil || !localRange(t) {
		lo, _ := b.fixed(t)
		return lo
	}
	_, off := time.Unix(0, t).In(b.loc).Zone()
	wlo, _ := b.fixed(t + int64(off)*1e9)
	return b.instant(wlo)
}

// next returns the bucket after the one keyed k (k itself at the end of
// int64).
func (b *bucketer) next(k int64) int64 {
	if b.months > 0 && localRange(k) {
		y, m, _ := time.Unix(0, k).In(b.location()).Date()
		return wallStart(y, m+time.Month(b.months), 1, 0, 0, 0, 0, b.location())
	}
	if b.loc == nil || !localRange(k) {
		_, hi := b.fixed(k)
		return hi
	}
	_, off := time.Unix(0, k).In(b.loc).Zone()
	_, whi := b.fixed(k + int64(off)*1e9)
	return b.instant(whi)
}

// maxSpan bounds t - key(t): a bucket's width (31 days a month) and
// the most a zone's wall clock goes back or forward at once (a day and
// two hours: zones have left a day out and repeated one).
func (b *bucketer) maxSpan() int64 {
	w := b.d
	if b.months > 0 {
		w = int64(b.months) * 31 * 24 * int64(time.Hour)
	}
	return w + 26*int64(time.Hour)
}

// location is the zone of the wall clock: UTC without one.
func (b *bucketer) location() *time.Location {
	if b.loc == nil {
		return time.UTC
	}
	return b.loc
}

// floorDiv is a / b rounded down (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// localRange reports whether t is far enough inside int64 (years 1679
// to 2261) for wall times around it to convert back: outside, buckets
// are on the UTC clock.
func localRange(t int64) bool {
	const margin = int64(400 * 24 * time.Hour)
	return t > math.MinInt64+margin && t < math.MaxInt64-margin
}

// fixed is the bucket of t on a clock without zone.
func (b *bucketer) fixed(t int64) (lo, hi int64) {
	if b.offset == 0 {
		return bucketBounds(t, b.d)
	}
	if t < math.MinInt64+b.offset {
		return math.MinInt64, math.MinInt64 + b.offset
	}
	lo, hi = bucketBounds(t-b.offset, b.d)
	if hi > math.MaxInt64-b.offset {
		return lo + b.offset, math.MaxInt64
	}
	if lo != math.MinInt64 {
		lo += b.offset
	} else {
		lo = math.MinInt64 + b.offset // the cut first bucket, from the check above
	}
	return lo, hi + b.offset
}

// instant returns the instant the wall time w (ns since the epoch read
// as a UTC clock) names in the zone.
func (b *bucketer) instant(w int64) int64 {
	u := time.Unix(0, w).UTC()
	return wallStart(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), b.location())
}

// wallStart is the first instant whose wall clock on loc reads the wall
// time given or later: time.Date's instant, but for a wall time a change
// skips, the instant of the change (time.Date answers one before or after
// the gap, by the gap), and for a wall time a change repeats,
// its first occurrence (time.Date may answer the second). So a bucket's
// key is never after its rows.
func wallStart(y int, mo time.Month, d, h, mi, s, ns int, loc *time.Location) int64 {
	t := time.Date(y, mo, d, h, mi, s, ns, loc)
	want := time.Date(y, mo, d, h, mi, s, ns, time.UTC).UnixNano()
	_, off := t.Zone()
	start, end := t.ZoneBounds()
	wall := t.UnixNano() + int64(off)*1e9
	switch {
	case wall < want && !end.IsZero(): // skipped, answered before the gap
		return end.UnixNano()
	case wall > want && !start.IsZero(): // skipped, answered after it
		return start.UnixNano()
	case !start.IsZero():
		// Repeated: the same wall time on the period before, at its
		// (larger) offset, is earlier.
		_, prev := start.Add(-time.Nanosecond).Zone()
		if e := want - int64(prev)*1e9; prev > off && e < start.UnixNano() && e < t.UnixNano() {
			return e
		}
	}
	return t.UnixNano()
}

func (b *bucketer) String() string {
	if b.text != "" {
		return b.text
	}
	return "time(" + time.Duration(b.d).String() + ")"
}
