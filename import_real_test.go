package tsq

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/internal/vfs"
)

// TestImportRealOSM imports the OSM Liechtenstein snapshot (shared data,
// skipped without it): every line a record, tags flattened.
func TestImportRealOSM(t *testing.T) {
	f := sharedData(t, "json/osm_liechtenstein_2013-08-03.jsonl")
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	o := importOpts(t)
	o.Mapping = mappingT(t, "time=ts_ms", "series=type", "key=type,id", "op=action", "type.version=int64")
	st, err := s.Import(ctx, "osm", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 72967 || countT(t, s, "osm") != 72967 {
		t.Fatalf("%+v", st)
	}
	r, err := s.Get("osm", 1)
	if err != nil {
		t.Fatal(err)
	}
	// first line: node 1, version 5, 2013-06-20T13:45:07Z, lat 46.9688169
	if v, _ := r.Field("version"); r.Series != "node" || r.Key != "node/1" || r.Time != 1371735907000*1e6 || v.Int() != 5 {
		t.Fatalf("%+v", r)
	}
	if v, _ := r.Field("lat"); v.Str() != "46.9688169" {
		t.Fatalf("lat %v", v)
	}
	tags := 0
	for b, err := range s.Scan(ctx, "osm", ScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range b.Columns {
			if c.Name == "tags.building" {
				for i := range b.Rows {
					if c.Valid == nil || c.Valid[i] {
						tags++
					}
				}
			}
		}
	}
	if tags != 3747 { // lines with a "building" key (all under tags)
		t.Fatalf("%d tags.building values", tags)
	}
	t.Logf("%+v", st)
}

// TestImportRealNAB imports the NAB metrics CSV (shared data) and checks
// every value bit for bit against strconv.ParseFloat of its text.
func TestImportRealNAB(t *testing.T) {
	f := sharedData(t, "metrics/nab_real.csv")
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	o := &ImportOptions{Source: "nab_real.csv", Mapping: mappingT(t, "time=ts_ms", "series=series", "type.value=float64")}
	st, err := s.Import(ctx, "nab", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 162575 {
		t.Fatalf("%+v", st)
	}
	raw, err := os.Open("../shared/data/metrics/nab_real.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	sc := bufio.NewScanner(raw)
	sc.Scan() // header
	n := 0
	for b, err := range s.Scan(ctx, "nab", ScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		values := col(b, "value")
		if values.Type != chunk.Float64 {
			t.Fatalf("value column is %v", values.Type)
		}
		for i := range b.Rows {
			if !sc.Scan() {
				t.Fatal("more rows than lines")
			}
			p := strings.Split(sc.Text(), ",")
			want, _ := strconv.ParseFloat(p[2], 64)
			ms, _ := strconv.ParseInt(p[1], 10, 64)
			r := RecordAt(b, i)
			if r.Series != p[0] || r.Time != ms*1e6 || math.Float64bits(values.Floats[i]) != math.Float64bits(want) {
				t.Fatalf("row %d: %+v, line %q", n, r, sc.Text())
			}
			n++
		}
	}
	if n != 162575 || sc.Scan() {
		t.Fatalf("%d rows compared", n)
	}
}

func col(b *chunk.Block, name string) *chunk.Column {
	for i := range b.Columns {
		if b.Columns[i].Name == name {
			return &b.Columns[i]
		}
	}
	panic("no column " + name)
}

type ingestMapping = ingest.Mapping

func mappingT(t testing.TB, kvs ...string) (m ingestMapping) {
	for _, kv := range kvs {
		if err := m.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	return m
}
