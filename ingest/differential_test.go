package ingest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// randomCell returns a cell of up to 12 runes drawn from letters, digits
// and the characters CSV must quote (comma, quote, newline, space), not
// starting or ending with a space; "" is an empty cell.
func randomCell(rng *rand.Rand) string {
	const alphabet = "ab7,\"\n xé0"
	n := 1 + rng.IntN(12)
	r := []rune(alphabet)
	var sb strings.Builder
	for range n {
		sb.WriteRune(r[rng.IntN(len(r))])
	}
	return strings.Trim(sb.String(), " ")
}

// randomTable returns column names (the time column "ts" among them, at a
// random place) and rows of cells, each column empty with its own
// probability; cells of "ts" are the row's time in milliseconds.
func randomTable(rng *rand.Rand) (names []string, rows [][]string) {
	ncols := 1 + rng.IntN(12)
	tsAt := rng.IntN(ncols + 1)
	empty := make([]float64, ncols+1)
	for i := range ncols + 1 {
		if i == tsAt {
			names = append(names, "ts")
			continue
		}
		names = append(names, fmt.Sprintf("c%d", i))
		empty[i] = []float64{0, 0.3, 0.9, 1}[rng.IntN(4)]
	}
	for r := range 1 + rng.IntN(60) {
		row := make([]string, len(names))
		for i := range names {
			switch {
			case i == tsAt:
				row[i] = fmt.Sprint(1000 * (r + 1))
			case rng.Float64() >= empty[i]:
				row[i] = randomCell(rng)
			}
		}
		rows = append(rows, row)
	}
	return names, rows
}

// stringMapping maps "ts" to the time and forces every other column to
// be a string, so that parsed values compare with the cells as text.
func stringMapping(t *testing.T, names []string) Mapping {
	kvs := []string{"time=ts"}
	for _, n := range names {
		if n != "ts" {
			kvs = append(kvs, "type."+n+"=string")
		}
	}
	return mapping(t, kvs...)
}

// checkRows compares parsed rows with the table: the same times in
// order, and in each row exactly the non-empty cells as fields.
func checkRows(t *testing.T, seed uint64, in string, names []string, want [][]string, got []row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("seed %d: %d rows, want %d; input:\n%s", seed, len(got), len(want), in)
	}
	for r, cells := range want {
		fields := map[string]any{}
		for i, c := range cells {
			if names[i] != "ts" && c != "" {
				fields[names[i]] = c
			}
		}
		if got[r].t != int64(r+1)*1e9 || !reflect.DeepEqual(got[r].fields, fields) {
			t.Fatalf("seed %d row %d: time %d fields %q, want %d %q; input:\n%s", seed, r, got[r].t, got[r].fields, int64(r+1)*1e9, fields, in)
		}
	}
}

// TestCSVDifferential parses random tables written by encoding/csv
// (quoted cells with commas, quotes and newlines; empty cells anywhere,
// whole empty columns) in batches of a few rows: every row comes back
// with exactly its non-empty cells.
func TestCSVDifferential(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 7))
		names, rows := randomTable(rng)
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.UseCRLF = seed%2 == 1
		_ = w.Write(names)
		_ = w.WriteAll(rows)
		in := buf.String()
		got, _, err := parseAll(t, in, Options{Format: CSV, Mapping: stringMapping(t, names), BatchRows: 1 + int(seed%9)})
		if err != nil {
			t.Fatalf("seed %d: %v; input:\n%s", seed, err, in)
		}
		checkRows(t, seed, in, names, rows, got)
	}
}

// TestJSONLinesDifferential parses random tables written as JSON lines,
// each row's fields in a random order with its empty cells left out (so
// that the k-th field of a row often differs from the previous row's).
func TestJSONLinesDifferential(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 11))
		names, rows := randomTable(rng)
		var buf bytes.Buffer
		for r, cells := range rows {
			buf.WriteByte('{')
			first := true
			for _, i := range rng.Perm(len(names)) {
				var v []byte
				switch {
				case names[i] == "ts":
					v = []byte(fmt.Sprint(1000 * (r + 1)))
				case cells[i] == "":
					continue
				default:
					v, _ = json.Marshal(cells[i])
				}
				if !first {
					buf.WriteByte(',')
				}
				first = false
				fmt.Fprintf(&buf, "%q:%s", names[i], v)
			}
			buf.WriteString("}\n")
		}
		in := buf.String()
		got, _, err := parseAll(t, in, Options{Format: JSONLines, Mapping: stringMapping(t, names), BatchRows: 1 + int(seed%9)})
		if err != nil {
			t.Fatalf("seed %d: %v; input:\n%s", seed, err, in)
		}
		checkRows(t, seed, in, names, rows, got)
	}
}
