package check

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tsq "github.com/tsqdb/tsq"
)

// importStore imports two batches of JSON lines into stream "ev" and
// returns the store directory and the journal's path.
func importStore(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := tsq.Open(dir, &tsq.Options{BlockRows: 200, SegmentMaxBytes: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for n := range 2 {
		var b strings.Builder
		for i := range 1500 {
			fmt.Fprintf(&b, `{"ts":%d,"host":"h%d","v":%d}`+"\n", 1700000000000+int64(n*1500+i), i%4, i)
		}
		o := &tsq.ImportOptions{Source: "ev.jsonl"}
		for _, kv := range []string{"time=ts", "series=host"} {
			if err := o.Mapping.Set(kv); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Import(context.Background(), "ev", strings.NewReader(b.String()), o); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, "streams", "ev", "JOURNAL")
}

// journalFrames returns the offsets and lengths of the journal's frames.
func journalFrames(t *testing.T, b []byte) (offs, lens []int) {
	t.Helper()
	for off := journalHdrLen; off < len(b); {
		n := int(binary.LittleEndian.Uint32(b[off:]))
		offs, lens = append(offs, off), append(lens, 8+n)
		off += 8 + n
	}
	return offs, lens
}

func checkT(t *testing.T, dir string) *Report {
	t.Helper()
	rep, err := Store(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestJournalClean(t *testing.T) {
	dir, _ := importStore(t)
	rep := checkT(t, dir)
	if !rep.OK() || rep.Journals != 1 {
		t.Fatalf("journals %d, problems %v", rep.Journals, rep.Problems)
	}
}

// TestJournalFlippedByte flips a byte in the payload of each record: the
// check names the journal, the record and its offset.
func TestJournalFlippedByte(t *testing.T) {
	for rec, want := range []string{"records follow", "the last record"} {
		t.Run(fmt.Sprint(rec), func(t *testing.T) {
			dir, p := importStore(t)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			offs, lens := journalFrames(t, b)
			if len(offs) != 2 {
				t.Fatalf("%d records", len(offs))
			}
			b[offs[rec]+lens[rec]/2] ^= 0x04
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			rep := checkT(t, dir)
			rel := filepath.Join("streams", "ev", "JOURNAL")
			if len(rep.Problems) != 1 {
				t.Fatalf("problems %v", rep.Problems)
			}
			pr := rep.Problems[0]
			t.Log(pr)
			if pr.File != rel || pr.Offset != int64(offs[rec]) || pr.Section != fmt.Sprintf("record %d", rec) ||
				!strings.Contains(pr.Msg, "checksum mismatch") || !strings.Contains(pr.Msg, want) {
				t.Fatalf("problem %v", pr)
			}
		})
	}
}

// TestJournalHeader: a bad magic is named at offset 0.
func TestJournalHeader(t *testing.T) {
	dir, p := importStore(t)
	b, _ := os.ReadFile(p)
	b[2] ^= 0xff
	os.WriteFile(p, b, 0o644)
	rep := checkT(t, dir)
	if len(rep.Problems) != 1 || rep.Problems[0].Section != "journal header" || rep.Problems[0].Offset != 0 {
		t.Fatalf("problems %v", rep.Problems)
	}
	t.Log(rep.Problems[0])
}

// TestJournalTornTail: a record cut short at the end of the file (a
// crash while appending) is not a problem: the store ignores it and the
// next import cuts it.
func TestJournalTornTail(t *testing.T) {
	dir, p := importStore(t)
	b, _ := os.ReadFile(p)
	offs, _ := journalFrames(t, b)
	os.WriteFile(p, b[:offs[1]+20], 0o644)
	if rep := checkT(t, dir); !rep.OK() {
		t.Fatalf("problems %v", rep.Problems)
	}
}

// TestJournalRevisions: a record whose CRC is right but whose seqs or
// segments do not match the store is named.
func TestJournalRevisions(t *testing.T) {
	cases := []struct {
		name string
		edit func(r *testRecord, dir string)
		want string
	}{
		{"last-seq", func(r *testRecord, _ string) { r.last += 10; r.rows += 10 }, "but its segments hold seqs"},
		{"rows", func(r *testRecord, _ string) { r.rows-- }, "rows but seqs"},
		{"missing-segment", func(r *testRecord, dir string) {
			os.Remove(filepath.Join(dir, "streams", "ev", r.segments[0]))
		}, "is missing"},
		{"overlap", func(r *testRecord, _ string) { r.first, r.rows = 1, r.last }, "overlap"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, p := importStore(t)
			b, _ := os.ReadFile(p)
			offs, lens := journalFrames(t, b)
			r := parseTestRecord(t, b[offs[1]+8:offs[1]+lens[1]])
			tc.edit(&r, dir)
			out := append(b[:offs[1]:offs[1]], r.frame()...)
			os.WriteFile(p, out, 0o644)
			rep := checkT(t, dir)
			var hit bool
			for _, pr := range rep.Problems {
				t.Log(pr)
				if pr.File == filepath.Join("streams", "ev", "JOURNAL") && pr.Offset == int64(offs[1]) &&
					strings.HasPrefix(pr.Section, "record 1 (import ev~") && strings.Contains(pr.Msg, tc.want) {
					hit = true
				}
			}
			if !hit {
				t.Fatalf("no problem %q in %v", tc.want, rep.Problems)
			}
		})
	}
}

// testRecord is a journal record, encoded as docs/FORMAT.md says.
type testRecord struct {
	id, source               string
	rows, bytes, first, last uint64
	time                     int64
	segments                 []string
}

func parseTestRecord(t *testing.T, p []byte) testRecord {
	t.Helper()
	var r testRecord
	p = p[1:]
	uv := func() uint64 { v, n := binary.Uvarint(p); p = p[n:]; return v }
	str := func() string { n := uv(); s := string(p[:n]); p = p[n:]; return s }
	r.id, r.source = str(), str()
	r.rows, r.bytes, r.first, r.last = uv(), uv(), uv(), uv()
	v, n := binary.Varint(p)
	r.time, p = v, p[n:]
	for range uv() {
		r.segments = append(r.segments, str())
	}
	return r
}

func (r *testRecord) frame() []byte {
	p := []byte{recImport}
	str := func(s string) { p = binary.AppendUvarint(p, uint64(len(s))); p = append(p, s...) }
	str(r.id)
	str(r.source)
	for _, v := range []uint64{r.rows, r.bytes, r.first, r.last} {
		p = binary.AppendUvarint(p, v)
	}
	p = binary.AppendVarint(p, r.time)
	p = binary.AppendUvarint(p, uint64(len(r.segments)))
	for _, s := range r.segments {
		str(s)
	}
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(p)))
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(p, crc32.MakeTable(crc32.Castagnoli)))
	return append(out, p...)
}
