package textdist

import "testing"

// TestEdit: insertions, deletions and substitutions count one each.
func TestEdit(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"", "abc", 3}, {"abc", "", 3},
		{"stdev", "stddev", 1}, {".shema", ".schema", 1}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2},
	} {
		if got := Edit(c.a, c.b); got != c.want {
			t.Errorf("Edit(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
