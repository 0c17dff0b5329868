package tsq

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/ingest"
)

var benchKeyed = flag.Int("query.keyed", 3_000_000, "keyed rows in the store of BenchmarkQueryKeyLookup")

// BenchmarkQueryKeyLookup looks rows up by key in a store of
// -query.keyed keyed puts (ids that grow with time, ord-00000000 up, in
// 50 series, imported into one segment), each query beside the same
// condition widened to the empty key (the empty string added to an IN
// list; no row has it), which no key span can prune and which costs the
// same to evaluate, in the same run: the ratio of the two is what the
// block key spans save.
//
//	go test -run XXX -bench QueryKeyLookup -benchtime 20x .
func BenchmarkQueryKeyLookup(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir, &Options{CompactInterval: 0})
	if err != nil {
		b.Fatal(err)
	}
	var in bytes.Buffer
	for i := range *benchKeyed {
		fmt.Fprintf(&in, `{"t":%d,"s":"h%02d","k":"ord-%08d","v":%d}`+"\n", 1_700_000_000_000+int64(i)*1000, i%50, i, i)
	}
	if _, err := s.Import(ctx, "ev", &in, &ImportOptions{Mapping: ingest.Mapping{Time: "t", TimeUnit: "ms", Series: "s", Key: "k"}}); err != nil {
		b.Fatal(err)
	}
	key := fmt.Sprintf("ord-%08d", *benchKeyed*2/5)
	prefix := key[:len(key)-4]
	for _, c := range []struct{ name, cond string }{
		{"key", "key = '" + key + "'"},
		{"key-unpruned", "key IN ('" + key + "', '')"},
		{"fold-key", "key = '" + key + "'"},
		{"fold-key-unpruned", "key IN ('" + key + "', '')"},
		{"prefix", "key LIKE '" + prefix + "%'"},
		{"prefix-unpruned", "(key LIKE '" + prefix + "%' OR key = '')"},
	} {
		from := "ev"
		if strings.HasPrefix(c.name, "fold") {
			from = "fold(ev)"
		}
		q := "SELECT count(*) FROM " + from + " WHERE " + c.cond
		b.Run(c.name, func(b *testing.B) {
			run := func() string {
				_, rows := queryT(b, s, q)
				return rows[0]
			}
			want := run() // warm: the schema, bloom and key span caches
			if want != "1" && want != "10000" {
				b.Fatalf("%s: %s rows", q, want)
			}
			for b.Loop() {
				run()
			}
		})
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}
