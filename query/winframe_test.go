package query

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// frameSpec is a random window with a frame, and its oracle.
type frameSpec struct {
	fn, arg  string // arg "" for count(*)
	n        int    // nth_value's place
	part     string // "", "s" or "series"
	key      string // "", "n", "x", "v", "time" or "s"
	desc     bool
	nulls    string // "", " NULLS FIRST" or " NULLS LAST"
	mode     string
	start    BoundKind
	end      BoundKind
	offS     string // the offsets as written
	offE     string
	offSv    float64 // and their values: rows, groups, key units (ns for time)
	offEv    float64
	ignore   bool   // IGNORE NULLS (value functions)
	exclude  string // EXCLUDE ...: "", "current row", "group", "ties"
	sqlCache string
}

func (f *frameSpec) sql() string {
	if f.sqlCache != "" {
		return f.sqlCache
	}
	arg := f.arg
	switch {
	case f.fn == "count" && arg == "":
		arg = "*"
	case f.fn == "nth_value":
		arg += fmt.Sprintf(", %d", f.n)
	}
	if f.ignore {
		arg += " IGNORE NULLS"
	}
	var over []string
	if f.part != "" {
		over = append(over, "PARTITION BY "+f.part)
	}
	if f.key != "" {
		over = append(over, "ORDER BY "+f.key+map[bool]string{true: " DESC"}[f.desc]+f.nulls)
	}
	bound := func(k BoundKind, off string) string {
		return map[BoundKind]string{UnboundedPreceding: "UNBOUNDED PRECEDING", Preceding: off + " PRECEDING", CurrentRow: "CURRENT ROW",
			Following: off + " FOLLOWING", UnboundedFollowing: "UNBOUNDED FOLLOWING"}[k]
	}
	fr := strings.ToUpper(f.mode) + " BETWEEN " + bound(f.start, f.offS) + " AND " + bound(f.end, f.offE)
	if f.end == CurrentRow && f.start != Following {
		fr = strings.ToUpper(f.mode) + " " + bound(f.start, f.offS) // the short form
	}
	if f.exclude != "" {
		fr += " EXCLUDE " + strings.ToUpper(f.exclude)
	}
	f.sqlCache = fmt.Sprintf("%s(%s) OVER (%s)", f.fn, arg, strings.Join(append(over, fr), " "))
	return f.sqlCache
}

func randomFrame(rng *rand.Rand) *frameSpec {
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	f := &frameSpec{mode: pick("rows", "range", "groups"), part: pick("", "s", "series"), desc: rng.IntN(3) == 0, nulls: pick("", "", " NULLS FIRST", " NULLS LAST")}
	fa := [][2]string{{"sum", "v"}, {"sum", "n"}, {"avg", "x"}, {"avg", "n"}, {"min", "n"}, {"max", "v"}, {"min", "s"}, {"max", "time"},
		{"count", ""}, {"count", "x"}, {"first_value", "n"}, {"last_value", "v"}, {"nth_value", "x"}}[rng.IntN(13)]
	f.fn, f.arg, f.n = fa[0], fa[1], 1+rng.IntN(3)
	f.ignore = strings.HasSuffix(f.fn, "_value") && rng.IntN(2) == 0
	f.exclude = pick("", "", "", "current row", "group", "ties")
	f.start = []BoundKind{UnboundedPreceding, Preceding, CurrentRow, Following}[rng.IntN(4)]
	ends := []BoundKind{Preceding, CurrentRow, Following, UnboundedFollowing}
	for {
		if f.end = ends[rng.IntN(4)]; f.end >= f.start {
			break
		}
	}
	offsets := f.start == Preceding || f.start == Following || f.end == Preceding || f.end == Following
	switch {
	case f.mode == "range" && offsets:
		f.key = pick("n", "x", "v", "time")
	case f.mode == "rows":
		f.key = pick("", "n", "x", "s", "time")
	default:
		f.key = pick("n", "x", "s", "time")
		if f.mode == "range" && rng.IntN(3) == 0 {
			f.key = ""
		}
	}
	off := func() (string, float64) {
		switch {
		case f.mode != "range":
			n := rng.IntN(6)
			return fmt.Sprint(n), float64(n)
		case f.key == "time":
			d := time.Duration(rng.IntN(8)) * 15 * time.Second
			return fmt.Sprintf("%ds", int(d.Seconds())), float64(d)
		case f.key == "n":
			n := rng.IntN(12)
			return fmt.Sprint(n), float64(n)
		}
		v := float64(rng.IntN(40)) / 4
		return fmt.Sprint(v), v
	}
	f.offS, f.offSv = off()
	f.offE, f.offEv = off()
	return f
}

// keyOf is row r's ORDER BY key value.
func (f *frameSpec) keyOf(r trow) any {
	if f.key == "time" {
		return r.time
	}
	return r.f[f.key]
}

// want computes f over rows (the result's, as read) by definition:
// each row's partition sorted by the key (then time and seq), its frame
// found by scanning for the first and last rows its bounds admit.
func (f *frameSpec) want(rows []trow) map[uint64]any {
	parts := map[any][]trow{}
	for _, r := range rows {
		var p any
		switch f.part {
		case "s":
			p = r.f["s"]
		case "series":
			p = r.series
		}
		parts[p] = append(parts[p], r)
	}
	nullsFirst := f.nulls == " NULLS FIRST" || f.nulls == "" && f.desc
	order := func(a, b trow) int {
		ka, kb := f.keyOf(a), f.keyOf(b)
		if f.key != "" {
			switch {
			case ka == nil && kb == nil:
			case ka == nil || kb == nil:
				if (ka == nil) == nullsFirst {
					return -1
				}
				return 1
			default:
				if c := compareAny(0, ka, kb); c != 0 {
					if f.desc {
						return -c
					}
					return c
				}
			}
		}
		return byTimeSeq(a, b)
	}
	// dist is how far b's key lies after a's along the order.
	dist := func(a, b any) float64 {
		var d float64
		switch a := a.(type) {
		case int64:
			d = float64(b.(int64) - a)
		case float64:
			d = b.(float64) - a
		}
		if f.desc {
			return -d
		}
		return d
	}
	out := map[uint64]any{}
	for _, p := range parts {
		slices.SortFunc(p, order)
		m := len(p)
		group := make([]int, m)
		for i := 1; i < m; i++ {
			group[i] = group[i-1]
			if f.key != "" && compareAny(0, f.keyOf(p[i-1]), f.keyOf(p[i])) != 0 {
				group[i]++
			}
		}
		for i, r := range p {
			null := f.keyOf(r) == nil
			// admits reports whether row j is at or after the start (at
			// or before the end) bound k with offset off.
			admits := func(j int, k BoundKind, off float64, isStart bool) bool {
				rel := func(d float64) bool { // d: j's distance after the bound
					if isStart {
						return d >= 0
					}
					return d <= 0
				}
				sign := 1.0
				if k == Preceding {
					sign = -1
				}
				switch {
				case k == UnboundedPreceding || k == UnboundedFollowing:
					return true
				case f.mode == "rows" && k == CurrentRow:
					return rel(float64(j - i))
				case k == CurrentRow || f.mode == "range" && null:
					return rel(float64(group[j] - group[i]))
				case f.mode == "rows":
					return rel(float64(j-i) - sign*off)
				case f.mode == "groups":
					return rel(float64(group[j]-group[i]) - sign*off)
				}
				kj := f.keyOf(p[j])
				return kj != nil && rel(dist(f.keyOf(r), kj)-sign*off)
			}
			s, e := m, 0
			for j := range m {
				if admits(j, f.start, f.offSv, true) && s == m {
					s = j
				}
				if admits(j, f.end, f.offEv, false) {
					e = j + 1
				}
			}
			if f.mode == "range" && !null && (f.start == Preceding || f.start == Following) && s == m {
				s = nonNullEnd(p, f.keyOf) // no key far enough: the frame starts past them
			}
			if f.mode == "range" && !null && (f.end == Preceding || f.end == Following) && e == 0 {
				e = nonNullStart(p, f.keyOf)
			}
			var frame []trow // the frame's rows but those EXCLUDE leaves out
			for j := s; j < e; j++ {
				switch {
				case f.exclude == "current row" && j == i:
				case f.exclude == "group" && group[j] == group[i]:
				case f.exclude == "ties" && group[j] == group[i] && j != i:
				default:
					frame = append(frame, p[j])
				}
			}
			out[r.seq] = f.aggregate(frame)
		}
	}
	return out
}

func nonNullStart(p []trow, key func(trow) any) int {
	return max(slices.IndexFunc(p, func(r trow) bool { return key(r) != nil }), 0)
}

func nonNullEnd(p []trow, key func(trow) any) int {
	end := 0
	for j, r := range p {
		if key(r) != nil {
			end = j + 1
		}
	}
	return end
}

// aggregate is f over the frame's rows p.
func (f *frameSpec) aggregate(p []trow) any {
	s, e := 0, len(p)
	arg := func(r trow) any {
		if f.arg == "time" {
			return r.time
		}
		return r.f[f.arg]
	}
	switch f.fn {
	case "first_value", "last_value", "nth_value":
		var frame []trow // the frame's rows, or with IGNORE NULLS those with an argument
		for j := s; j < e; j++ {
			if !f.ignore || arg(p[j]) != nil {
				frame = append(frame, p[j])
			}
		}
		j := map[string]int{"first_value": 0, "last_value": len(frame) - 1, "nth_value": f.n - 1}[f.fn]
		if j < 0 || j >= len(frame) {
			return nil
		}
		return arg(frame[j])
	}
	var vals []any
	for j := s; j < e; j++ {
		if f.arg == "" {
			vals = append(vals, true)
		} else if v := arg(p[j]); v != nil {
			vals = append(vals, v)
		}
	}
	return bruteWindowAgg(f.fn, vals)
}

// bruteWindowAgg is aggregate fn (count, min, max, sum, avg) of the
// non-null values vals, summed plainly.
func bruteWindowAgg(fn string, vals []any) any {
	switch {
	case fn == "count":
		return int64(len(vals))
	case len(vals) == 0:
		return nil
	case fn == "min" || fn == "max":
		best := vals[0]
		for _, v := range vals[1:] {
			if c := compareAny(0, v, best); fn == "min" && c < 0 || fn == "max" && c > 0 {
				best = v
			}
		}
		return best
	}
	var si int64
	var sf float64
	for _, v := range vals {
		switch v := v.(type) {
		case int64:
			si += v
			sf += float64(v)
		case float64:
			sf += v
		}
	}
	switch _, isInt := vals[0].(int64); {
	case fn == "avg":
		return sf / float64(len(vals))
	case isInt:
		return si
	}
	return sf
}

// TestWindowFrames: ROWS, RANGE and GROUPS frames, every kind of bound,
// over numbers, times, text and nulls, for sum, avg, min, max, count and
// the value functions, against an oracle that finds each row's frame
// by scanning its partition for the rows its bounds admit.
func TestWindowFrames(t *testing.T) {
	src, rows := testSource(t, 1200, 50)
	bySeq := bySeqOf(rows)
	rng := rand.New(rand.NewPCG(7, 11))
	// The moving windows users write, then random ones.
	specs := []*frameSpec{
		{fn: "avg", arg: "v", part: "series", key: "time", mode: "range", start: Preceding, end: CurrentRow, offS: "1m", offSv: float64(time.Minute)},
		{fn: "sum", arg: "n", part: "series", mode: "rows", start: Preceding, end: CurrentRow, offS: "4", offSv: 4},
		{fn: "max", arg: "v", part: "series", mode: "rows", start: Preceding, end: Following, offS: "2", offSv: 2, offE: "2", offEv: 2},
	}
	for range 240 {
		specs = append(specs, randomFrame(rng))
	}
	for lo := 0; lo < len(specs); lo += 12 {
		batch := specs[lo:min(lo+12, len(specs))]
		var items []string
		for _, f := range batch {
			items = append(items, f.sql())
		}
		q := "SELECT seq, " + strings.Join(items, ", ") + " FROM m WHERE op = 'put'"
		got, err := runCells(q, openOnly(src), &Options{BatchRows: 7})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		rs := rowsOf(got, bySeq)
		if len(rs) < 900 {
			t.Fatalf("%d rows", len(rs))
		}
		for k, f := range batch {
			want := f.want(rs)
			for _, g := range got {
				if w := want[g[0].(uint64)]; !sameCell(g[k+1], w) {
					t.Fatalf("seq %d: %s = %v, want %v", g[0], f.sql(), g[k+1], w)
				}
			}
		}
	}
}

// TestWindowFramesGrouped: frames over an aggregate query's rows, the
// time buckets of each series: a moving mean over the buckets of the
// last 5 minutes (RANGE on the bucket), of the last three buckets
// (ROWS) and the largest count of the buckets around (GROUPS), against
// the same sums over the plain aggregate's rows.
func TestWindowFramesGrouped(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	plain := mustRun(t, open, "SELECT series, time, sum(v) AS s, count(*) AS c FROM m GROUP BY time(1m), series ORDER BY series, time")
	got := mustRun(t, open, "SELECT series, time, sum(sum(v)) OVER (PARTITION BY series ORDER BY time RANGE BETWEEN 5m PRECEDING AND CURRENT ROW) AS r5, "+
		"sum(sum(v)) OVER (PARTITION BY series ROWS 2 PRECEDING) AS last3, max(count(*)) OVER (PARTITION BY series ORDER BY time GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS near "+
		"FROM m GROUP BY time(1m), series ORDER BY series, time")
	if len(got) != len(plain) || len(got) < 100 {
		t.Fatalf("%d rows, %d plain", len(got), len(plain))
	}
	sumOf := func(v any) float64 { f, _ := v.(float64); return f }
	for i, g := range got {
		var r5, last3 float64
		var near int64
		var any5, any3 bool
		for j, p := range plain {
			if p[0] != g[0] {
				continue
			}
			d := time.Duration(g[1].(int64) - p[1].(int64))
			if d >= 0 && d <= 5*time.Minute && p[2] != nil {
				r5, any5 = r5+sumOf(p[2]), true
			}
			if j <= i && j >= i-2 && p[2] != nil {
				last3, any3 = last3+sumOf(p[2]), true
			}
			if j >= i-1 && j <= i+1 {
				near = max(near, p[3].(int64))
			}
		}
		want := []any{nil, nil, near}
		if any5 {
			want[0] = r5
		}
		if any3 {
			want[1] = last3
		}
		for k, w := range want {
			if !sameCell(g[2+k], w) {
				t.Fatalf("row %d %v: column %d = %v, want %v", i, g[:2], 2+k, g[2+k], w)
			}
		}
	}
}

// TestWindowFrameErrors: frames that cannot be, or that a function or an
// ORDER BY cannot take, fail with where and why; EXPLAIN shows a frame.
func TestWindowFrameErrors(t *testing.T) {
	src, _ := testSource(t, 300, 50)
	open := openOnly(src)
	wantErrors(t, open, []errCase{
		{"SELECT sum(v) OVER (ORDER BY time ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM m", "cannot start at UNBOUNDED FOLLOWING", "UNBOUNDED FOLLOWING AND"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING) FROM m", "cannot end at UNBOUNDED PRECEDING", "UNBOUNDED PRECEDING)"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS BETWEEN CURRENT ROW AND 2 PRECEDING) FROM m", "cannot end (2 PRECEDING) before it starts (CURRENT ROW)", "2 PRECEDING)"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS 2 FOLLOWING) FROM m", "cannot end (CURRENT ROW) before it starts (2 FOLLOWING)", "2 FOLLOWING)"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS -2 PRECEDING) FROM m", "offset cannot be negative", "-2"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS BETWEEN 2 AND CURRENT ROW) FROM m", "expected PRECEDING or FOLLOWING in the window frame, found \"AND\"", "AND CURRENT"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS BETWEEN UNBOUNDED ROW AND CURRENT ROW) FROM m", "expected PRECEDING or FOLLOWING", "ROW AND"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS BETWEEN CURRENT AND CURRENT ROW) FROM m", "expected ROW after CURRENT in the window frame, found \"AND\"", "AND CURRENT ROW"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS LAST) FROM m", "expected UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW", "LAST"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS 2 PRECEDING EXCLUDE OTHERS) FROM m", "expected CURRENT ROW, GROUP, TIES or NO OTHERS after EXCLUDE, found \"OTHERS\"", "OTHERS"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS 1.5 PRECEDING) FROM m", "ROWS frames count rows: the offset is a whole number, found 1.5", "1.5"},
		{"SELECT sum(v) OVER (ORDER BY time GROUPS 1h PRECEDING) FROM m", "GROUPS frames count groups", "1h"},
		{"SELECT sum(v) OVER (ORDER BY time RANGE 5 PRECEDING) FROM m", "offset is a duration such as 1h, found 5", "5 PRECEDING"},
		{"SELECT sum(v) OVER (ORDER BY n RANGE 1mo PRECEDING) FROM m", "a RANGE frame over a number: the offset is a number, found the duration 1mo", "1mo"},
		{"SELECT sum(v) OVER (ORDER BY time ROWS 1mo PRECEDING) FROM m", "ROWS frames count rows: the offset is a whole number, found 1mo", "1mo"},
		{"SELECT sum(v) OVER (ORDER BY n RANGE 1h PRECEDING) FROM m", "offset is a number, found the duration 1h", "1h"},
		{"SELECT sum(v) OVER (ORDER BY n RANGE 0.5 PRECEDING) FROM m", "over an integer: the offset is a whole number, found 0.5", "0.5"},
		{"SELECT sum(v) OVER (ORDER BY s RANGE 1 PRECEDING) FROM m", "a number or a time, found string", "1 PRECEDING"},
		{"SELECT sum(v) OVER (ORDER BY n, x RANGE 1 PRECEDING) FROM m", "must have exactly one key", "1 PRECEDING"},
		{"SELECT sum(v) OVER (RANGE 1 PRECEDING) FROM m", "must have exactly one key", "1 PRECEDING"},
		{"SELECT sum(v) OVER (GROUPS 1 PRECEDING) FROM m", "a GROUPS frame counts runs of rows that tie on OVER's ORDER BY, which it needs", "GROUPS"},
		{"SELECT moving_average(v, 3) OVER (ROWS 2 PRECEDING) FROM m", "moving_average takes no window frame", "ROWS"},
		{"SELECT sum(avg(v)) OVER (ORDER BY avg(v) RANGE 1h PRECEDING) FROM m GROUP BY time(1m)", "offset is a number, found the duration 1h", "1h"},
	})
	// The ranking functions and lag ignore a frame, as in SQL.
	sameRows(t, open, "SELECT seq, row_number() OVER (ORDER BY seq ROWS 2 PRECEDING), lag(n) OVER (ORDER BY seq RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM m",
		"SELECT seq, row_number() OVER (ORDER BY seq), lag(n) OVER (ORDER BY seq) FROM m", 200)
	p := explainLines(t, src, "EXPLAIN SELECT avg(v) OVER (PARTITION BY series ORDER BY time RANGE INTERVAL '90 seconds' PRECEDING) AS ma FROM m")
	if !strings.Contains(p, " over [series] in order of time, seq, frame range between 90s preceding and current row") {
		t.Errorf("EXPLAIN:\n%s", p)
	}
}

// TestAggTree: the segment tree of EXCLUDE frames answers every range
// of partitions of every size (a power of two or not) as a scan does.
func TestAggTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for m := 1; m <= 40; m++ {
		vals := make([]value, m)
		for j := range vals {
			if vals[j] = (value{i: int64(rng.IntN(100) - 50)}); rng.IntN(5) == 0 {
				vals[j] = nullValue
			}
		}
		for _, fn := range []string{"sum", "min", "max", "count", "avg"} {
			tree := newAggTree(fn, kInt, m, func(j int) *value { return &vals[j] })
			for l := 0; l <= m; l++ {
				for r := l; r <= m; r++ {
					var in []any
					for _, v := range vals[l:r] {
						if !v.null {
							in = append(in, v.i)
						}
					}
					got, want := tree.result(tree.query(l, r)), bruteWindowAgg(fn, in)
					var g any
					switch {
					case got.null:
					case fn == "avg":
						g = got.fl()
					default:
						g = got.i
					}
					if !sameCell(g, want) {
						t.Fatalf("m %d %s [%d, %d) = %v, want %v", m, fn, l, r, g, want)
					}
				}
			}
		}
	}
}
