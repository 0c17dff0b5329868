package tsq

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestQueryDocExamples runs every sql block of docs/QUERY.md on the
// shared NAB metrics and checks the row counts its "-- rows:" comments
// give. It is skipped when ../shared/data is absent.
func TestQueryDocExamples(t *testing.T) {
	if _, err := os.Stat(*benchNAB); err != nil {
		t.Skipf("shared data absent: %v", err)
	}
	doc, err := os.ReadFile("docs/QUERY.md")
	if err != nil {
		t.Fatal(err)
	}
	nab, err := loadNAB(*benchNAB)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "db")
	if err := buildBenchStore(dir, len(nab)); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := s.Count("nab"); err != nil || n != len(nab) {
		t.Fatalf("store holds %d samples (%v), want %d", n, err, len(nab))
	}
	blocks := regexp.MustCompile("(?s)```sql\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 5 {
		t.Fatalf("%d sql examples in docs/QUERY.md", len(blocks))
	}
	rowsRe := regexp.MustCompile(`-- rows: (\d+)`)
	for _, b := range blocks {
		q := b[1]
		_, rows := queryT(t, s, q)
		m := rowsRe.FindStringSubmatch(q)
		if m == nil {
			t.Errorf("example without a -- rows: comment:\n%s", q)
			continue
		}
		if want, _ := strconv.Atoi(m[1]); len(rows) != want {
			t.Errorf("%s\n%d rows, the doc says %d; first rows:\n%s", q, len(rows), want, strings.Join(rows[:min(len(rows), 5)], "\n"))
		}
		if testing.Verbose() {
			t.Logf("%s=> %d rows\n%s", q, len(rows), strings.Join(rows[:min(len(rows), 8)], "\n"))
		}
	}
}
