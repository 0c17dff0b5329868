package query

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"
)

// mustRun runs q on open's streams and fails the test on an error.
func mustRun(t testing.TB, open Opener, q string) [][]any {
	t.Helper()
	got, err := runCells(q, open, &Options{Now: modelNow}) // runs compare: one now()
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return got
}

// numField is field f of r as a float64, if it is a number.
func numField(r trow, f string) (float64, bool) {
	switch v := r.f[f].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// planText runs q, an EXPLAIN, and returns its lines joined.
func planText(t testing.TB, open Opener, q string) string {
	t.Helper()
	var lines []string
	for _, r := range mustRun(t, open, q) {
		lines = append(lines, r[0].(string))
	}
	return strings.Join(lines, "\n")
}

// errCase is a statement that must fail with an *Error whose message
// has msg, pointing at the text that starts with at ("": anywhere).
type errCase struct{ q, msg, at string }

func wantErrors(t *testing.T, open Opener, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		_, err := runCells(c.q, open, nil)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an *Error saying %q", c.q, err, c.msg)
			continue
		}
		if c.at != "" && !strings.HasPrefix(c.q[e.Pos:], c.at) {
			t.Errorf("%s: error at %q, want at %q", c.q, c.q[e.Pos:], c.at)
		}
	}
}

// sameRows fails the test unless q gives the rows same gives, and at
// least least of them: fewer would show little.
func sameRows(t *testing.T, open Opener, q, same string, least int) {
	t.Helper()
	got, want := mustRun(t, open, q), mustRun(t, open, same)
	if len(want) < least {
		t.Fatalf("%s: %d rows: too few to show anything", same, len(want))
	}
	if d := diffCells(got, want); d != "" {
		t.Errorf("%s: %s", q, d)
	}
}

// bySeqOf indexes rows by seq.
func bySeqOf(rows []trow) map[uint64]trow {
	m := make(map[uint64]trow, len(rows))
	for _, r := range rows {
		m[r.seq] = r
	}
	return m
}

// byTimeSeq orders rows by (time, seq), as windows and first() do.
func byTimeSeq(a, b trow) int { return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq)) }

// rowsOf returns the generated rows of result got, whose first column is
// seq, in its order.
func rowsOf(got [][]any, bySeq map[uint64]trow) []trow {
	rs := make([]trow, len(got))
	for i, g := range got {
		rs[i] = bySeq[g[0].(uint64)]
	}
	return rs
}

// seriesParts groups rows by series, each in (time, seq) order: the
// default window's partitions.
func seriesParts(rows []trow) map[string][]trow {
	parts := map[string][]trow{}
	for _, r := range rows {
		parts[r.series] = append(parts[r.series], r)
	}
	for _, p := range parts {
		slices.SortFunc(p, byTimeSeq)
	}
	return parts
}
