package query

import (
	"errors"
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
