package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDropCommand: tsq drop and .drop remove streams and say what they
// removed; unknown names and a missing name fail with exit status 1.
func TestDropCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	csv := writeFile(t, t.TempDir(), "d.csv", "ts,v\n2024-01-02T03:00:00Z,1\n2024-01-02T03:01:00Z,2\n")
	for _, name := range []string{"a", "b", "c"} {
		if r := runTSQ(t, "", "--store", dir, "import", csv, "--stream", name); r.code != 0 {
			t.Fatalf("import: %+v", r)
		}
	}
	r := runTSQ(t, "", "--store", dir, "drop", "a")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "dropped stream a: 2 rows, 1 segment, ") {
		t.Fatalf("tsq drop: %+v", r)
	}
	r = runTSQ(t, "SELECT count(*) FROM b;\n.drop b\n.streams\nSELECT count(*) FROM b;\n", "--store", dir)
	if r.code == 0 || !strings.Contains(r.stdout, "dropped stream b: 2 rows") || !strings.Contains(r.stdout, "c  2 rows") ||
		strings.Contains(r.stdout, "b  2 rows") || !strings.Contains(r.stderr, `stream "b": stream not found`) {
		t.Fatalf(".drop: %+v", r)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"drop"}, "name the streams to remove"},
		{[]string{"drop", "nosuch"}, `stream "nosuch": stream not found`},
		{[]string{"drop", "c", "c"}, `stream "c": stream not found`},
	} {
		if r := runTSQ(t, "", append([]string{"--store", dir}, c.args...)...); r.code == 0 || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%v: %+v", c.args, r)
		}
	}
	if r := runTSQ(t, ".streams\n", "--store", dir); r.code != 0 || strings.TrimSpace(r.stdout) != "no streams" {
		t.Fatalf("after dropping every stream: %+v", r)
	}
}
