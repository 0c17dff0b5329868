package demodata

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerate remakes the embedded files from the shared data set:
//
//	TSQ_DEMODATA_GEN=1 go test ./cmd/tsq/demodata -run TestGenerate
//
// TSQ_SHARED_DATA points at the shared data directory (default
// ../../../../shared/data from this package, i.e. ../shared/data from the
// repository). Lines are copied verbatim; only which lines is chosen here.
func TestGenerate(t *testing.T) {
	if os.Getenv("TSQ_DEMODATA_GEN") != "1" {
		t.Skip("set TSQ_DEMODATA_GEN=1 to remake the embedded demo data")
	}
	src := os.Getenv("TSQ_SHARED_DATA")
	if src == "" {
		src = filepath.Join("..", "..", "..", "..", "shared", "data")
	}
	nab := filterLines(t, filepath.Join(src, "metrics", "nab_real.csv"), func(i int, line string) bool {
		if i == 0 {
			return true // the header
		}
		series, _, _ := strings.Cut(line, ",")
		for _, s := range NABSeries {
			if series == s {
				return true
			}
		}
		return false
	})
	writeGz(t, "nab.csv.gz", nab)

	counts := map[string]int{}
	osm := filterLines(t, filepath.Join(src, "events", "osm_ch_diff_2013-04-10.jsonl"), func(_ int, line string) bool {
		var ev struct{ Action string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if counts[ev.Action] >= osmPerAction[ev.Action] {
			return false
		}
		counts[ev.Action]++
		return true
	})
	writeGz(t, "osm.jsonl.gz", osm)
	t.Logf("osm lines by action: %v", counts)
}

// osmPerAction is how many lines of each action the demo keeps, the first
// ones in file order.
var osmPerAction = map[string]int{"create": 300, "modify": 185, "delete": 250}

func filterLines(t *testing.T, path string, keep func(i int, line string) bool) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for i := 0; sc.Scan(); i++ {
		if keep(i, sc.Text()) {
			out.WriteString(sc.Text() + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// writeGz writes data gzipped with no name or time in the header, so the
// output depends only on the input.
func writeGz(t *testing.T, name string, data []byte) {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes (%d raw)", name, buf.Len(), len(data))
}
