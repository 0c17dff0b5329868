package query

import (
	"context"
	"slices"
	"strings"

	"github.com/tsqdb/tsq/chunk"
)

// A join runs its right side first and holds its rows (at most
// maxJoinRightRows) in a hash table by the values ON compares for
// equality; then it streams the left side, batch by batch, and writes
// each left row with its matches, in the left's order and, for one left
// row, in the right's order, into blocks as a subquery's result is
// (subSource): the statement reads that relation. Its columns: time,
// series, key and op are the left row's; every column c of a side is
// a.c (b.c for the right side); a field of one side only, and a column
// of USING, is also c. NULL never equals anything.
//
// ASOF: of the right rows whose equality columns match, the one whose
// inequality column is nearest the left row's on the side the inequality
// allows (a.time >= b.time: the latest at or before); among rows with
// that same value, the last in the right's order.

// joinSource runs st's join and holds its result.
func joinSource(ctx context.Context, st *Statement, text string, open Opener, o *Options, in inValues) (*subSource, error) {
	j := st.Join
	var named map[string]bool
	nested := st.keep != nil // a nested join (its items a.*, b.*), narrowed by the join after it
	switch {
	case nested:
		named = st.keep
	case !st.Star && st.starItem() < 0 && !st.columnsItems():
		named = namesIn(text)
	}
	if named != nil {
		for _, s := range []*JoinSide{&j.Left, &j.Right} {
			if !nested && slices.ContainsFunc(st.Items, func(it SelectItem) bool {
				return it.Col != nil && strings.HasSuffix(it.Col.Name, ".*") && slices.Contains(s.names(), strings.TrimSuffix(it.Col.Name, ".*"))
			}) {
				named[s.Alias+".*"] = true // SELECT a.*: all of a (of a nested side: all of it)
				continue
			}
			if s.stream { // read only the fields the statement names
				s.St.keep = map[string]bool{}
				for n := range named {
					s.St.keep[strings.TrimPrefix(n, s.Alias+".")] = true
				}
				// The relation's time and series: buckets, first, last,
				// rate, windows and labels read them unnamed (the right
				// side's where a RIGHT or FULL join has no left row); and
				// a column, so that rows come (a CROSS JOIN may name none).
				s.St.keep[ColTime] = true
				if s == &j.Left {
					s.St.keep[ColSeries] = true
				}
			} else if s.nested != nil { // the join before: only the columns named, a bare name (USING's) of any of its sources
				s.St.keep = map[string]bool{}
				for n := range named {
					s.St.keep[n] = true
					if !strings.Contains(n, ".") {
						for _, a := range s.nested {
							s.St.keep[a+"."+n] = true
						}
					}
				}
			}
		}
	}
	rr, err := exec(ctx, j.Right.St, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	right, err := newJoinSide(&j.Right, rr.Schema(), text)
	if err != nil {
		return nil, err
	}
	held := 0 // bytes of the right side's batches
	for rr.Next() {
		rec := rr.RecordBatch()
		held += recordBytes(rec)
		if right.rows+int(rec.NumRows()) > maxJoinRightRows || held > maxJoinRightBytes {
			return nil, errAt(text, j.Right.Pos, "join: its right side %s passes %d rows or %d MiB, which a join holds in memory: narrow it (a subquery with WHERE time ..., fewer columns), aggregate it, or swap the sides (the left side streams)", j.Right.Alias, maxJoinRightRows, maxJoinRightBytes>>20)
		}
		if err := right.load(rec, false, text); err != nil {
			return nil, err
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	lr, err := exec(ctx, j.Left.St, text, open, o)
	if err != nil {
		return nil, err
	}
	defer lr.Release()
	left, err := newJoinSide(&j.Left, lr.Schema(), text)
	if err != nil {
		return nil, err
	}
	if err := left.checkBase(text); err != nil {
		return nil, err
	}
	jp, err := planJoin(j, left, right, text, o.withDefaults().Now.UnixNano())
	if err != nil {
		return nil, err
	}
	right.recompute() // its rows came before ON's terms were planned
	if named != nil {
		jp.outs = slices.DeleteFunc(jp.outs, func(o joinOut) bool {
			return !named[o.name] && !named[jp.sides[o.side].side.Alias+".*"]
		})
	}
	groups := jp.buildRight()
	star := jp.star
	if nested { // SELECT a.* of the nested join: the columns kept
		kept := map[string]bool{}
		for _, o := range jp.outs {
			kept[o.name] = true
		}
		star = slices.DeleteFunc(slices.Clone(star), func(n string) bool { return !kept[n] })
	}
	src := &subSource{join: j.String(), star: star}
	for _, out := range jp.outs {
		if len(out.name) > chunk.MaxNameLen {
			return nil, errAt(text, j.Pos, "join: its column %.40s... has a name of %d bytes, which the joined rows cannot keep (at most %d): rename it (AS ...)", out.name, len(out.name), chunk.MaxNameLen)
		}
		src.fields = append(src.fields, FieldDef{Name: out.name, Type: jp.sides[out.side].cols[out.col].typ})
		if jp.sides[out.side].cols[out.col].instant {
			if src.instants == nil {
				src.instants = map[string]bool{}
			}
			src.instants[out.name] = true
		}
		if jp.sides[out.side].cols[out.col].span {
			if src.durations == nil {
				src.durations = map[string]bool{}
			}
			src.durations[out.name] = true
		}
	}
	w := newJoinWriter(jp, &subBuilder{src: src, pos: j.Pos, text: text})
	defer w.stop()
	if w.where, err = joinWhere(st, text, src, o, in); err != nil {
		return nil, err
	}
	outer := strings.HasSuffix(j.Kind, "left") || j.Kind == "full"
	// RIGHT and FULL: the right rows no left row matched come after.
	var matched []bool
	if j.Kind == "right" || j.Kind == "full" {
		matched = make([]bool, right.rows)
	}
	// A statement that takes the first rows as they come (LIMIT, no
	// WHERE, order, grouping or window) needs no more of the join.
	enough := -1
	if st.Limit >= 0 && (st.Where == nil || w.where != nil) && len(st.OrderBy) == 0 && !isAggregate(st) &&
		!slices.ContainsFunc(st.Items, func(it SelectItem) bool { return it.Win != nil }) {
		enough = int(min(st.Limit+st.Offset, int64(maxSubqueryRows)))
	}
	var buf, prevKey []byte
	var prev *joinGroup // the group of prevKey: a series' rows come in runs
	var li, ri []int32
	for lr.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := left.load(lr.RecordBatch(), true, text); err != nil {
			return nil, err
		}
		li, ri = li[:0], ri[:0]
		for r := range left.rows {
			var g *joinGroup
			key, ok := jp.keyOf(buf[:0], 0, r)
			buf = key
			switch {
			case ok && prevKey != nil && string(key) == string(prevKey):
				g = prev
			case ok:
				g = groups[string(key)]
				prev, prevKey = g, append(prevKey[:0], key...)
			}
			n := len(li)
			if g != nil {
				if jp.ineq == nil {
					for _, m := range g.rows {
						li, ri = append(li, int32(r)), append(ri, m)
						if matched != nil {
							matched[m] = true
						}
					}
				} else if iv, fv, ok := jp.orderOf(0, r); ok {
					if m := jp.asofMatch(g, iv, fv); m >= 0 {
						li, ri = append(li, int32(r)), append(ri, m)
					}
				}
			}
			if outer && len(li) == n {
				li, ri = append(li, int32(r)), append(ri, -1)
			}
			if enough >= 0 && w.where == nil && src.rows+len(li) >= enough {
				li, ri = li[:enough-src.rows], ri[:enough-src.rows]
				break
			}
			if len(li) >= subBlockRows {
				if err := w.write(li, ri); err != nil {
					return nil, err
				}
				li, ri = li[:0], ri[:0]
				if enough >= 0 && w.base >= enough {
					break
				}
			}
		}
		if err := w.write(li, ri); err != nil {
			return nil, err
		}
		if enough >= 0 && (w.where == nil && src.rows >= enough || w.base >= enough) { // w.base: rows WHERE took
			break
		}
	}
	if err := lr.Err(); err != nil {
		return nil, err
	}
	if matched != nil && !(enough >= 0 && (w.where == nil && src.rows >= enough || w.base >= enough)) {
		li, ri = li[:0], ri[:0]
		for m, ok := range matched {
			if !ok {
				li, ri = append(li, -1), append(ri, int32(m))
			}
			if len(li) >= subBlockRows || m == len(matched)-1 {
				if err := w.write(li, ri); err != nil {
					return nil, err
				}
				li, ri = li[:0], ri[:0]
			}
		}
	}
	if err := w.finish(); err != nil {
		return nil, err
	}
	return src, nil
}
