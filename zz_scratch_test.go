package tsq

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

func BenchmarkZZOSMStats(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir, &Options{Sync: SyncNever, SegmentMaxBytes: 8 << 20, CompactInterval: 0})
	if err != nil {
		b.Fatal(err)
	}
	fillOSM(b, s, "ev")
	s.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "streams", "ev", "*.seg"))
	type agg struct {
		n, raw, stored, rows int
		enc                  time.Duration
	}
	m := map[string]*agg{}
	var d chunk.Decoder
	var e chunk.Encoder
	var buf []byte
	nb := 0
	for _, f := range files {
		r, err := seg.Open(vfs.Default, f)
		if err != nil {
			b.Fatal(err)
		}
		for i := range r.Blocks() {
			blk, err := r.ReadBlock(i, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := d.Reset(blk); err != nil {
				b.Fatal(err)
			}
			nb++
			for c := range d.NumColumns() {
				info := d.Info(c)
				var col chunk.Column
				d.Column(c, &col)
				h := d.Hint(c)
				pres := 0
				for _, v := range col.Valid {
					if v {
						pres++
					}
				}
				if col.Valid == nil {
					pres = d.Rows()
				}
				fr := "dense"
				if pres*8 < d.Rows() {
					fr = "sparse"
				}
				k := fmt.Sprintf("%-8v enc=%d comp=%v %s", info.Type, h.Encoding, info.Compression, fr)
				a := m[k]
				if a == nil {
					a = &agg{}
					m[k] = a
				}
				a.n++
				a.raw += info.Raw
				a.stored += info.Stored
				a.rows += d.Rows()
				blkc := chunk.Block{Rows: d.Rows(), Columns: []chunk.Column{col}}
				t0 := time.Now()
				for range 20 {
					buf, _ = e.EncodeAs(buf[:0], &blkc, []chunk.Hint{h})
				}
				a.enc += time.Since(t0) / 20
			}
		}
		r.Close()
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]].enc > m[keys[j]].enc })
	b.Logf("%d blocks", nb)
	for _, k := range keys {
		a := m[k]
		b.Logf("%-40s cols %6d raw %9d stored %9d rows/col %6d enc %v", k, a.n, a.raw, a.stored, a.rows/a.n, a.enc)
	}
}
