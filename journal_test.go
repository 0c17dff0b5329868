package tsq

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

// goldenJournal is the journal of docs/FORMAT.md "Import journal": the
// header and one record.
var goldenRecord = JournalRecord{ID: "ev~1-ab", Source: "a.jsonl", Rows: 3, Bytes: 300, FirstSeq: 5, LastSeq: 7,
	Time: 1764633600000000000, Segments: []string{"2026-12-01-0000000000000005.seg"}}

const goldenJournal = "5453514a524e4c00" + "0100" + "0000" + // magic, version 1, reserved
	"40000000" + "099879c0" + // payload length 64, CRC-32C
	"01" + "07" + "65767e312d6162" + "07" + "612e6a736f6e6c" + // type 1, id, source
	"03" + "ac02" + "05" + "07" + // rows, bytes, first seq, last seq
	"8080c0eb9cba9efd30" + // time (zigzag varint)
	"01" + "1f" + "323032362d31322d30312d303030303030303030303030303030352e736567" // one segment name

func TestJournalGolden(t *testing.T) {
	b := appendJournalRecord(journalHeader(), &goldenRecord)
	if got := hex.EncodeToString(b); got != goldenJournal {
		t.Fatalf("journal bytes\n got %s\nwant %s", got, goldenJournal)
	}
	recs, valid, err := parseJournal(b, "J")
	if err != nil || valid != len(b) || len(recs) != 1 || !reflect.DeepEqual(recs[0], goldenRecord) {
		t.Fatalf("%v %d %+v", err, valid, recs)
	}
}

func TestJournalDamage(t *testing.T) {
	one := appendJournalRecord(journalHeader(), &goldenRecord)
	two := appendJournalRecord(one, &JournalRecord{ID: "ev~2-cd"})
	// a torn or corrupt last record ends the valid prefix
	for cut := len(one); cut < len(two); cut++ {
		recs, valid, err := parseJournal(two[:cut], "J")
		if err != nil || valid != len(one) || len(recs) != 1 {
			t.Fatalf("cut at %d: %v %d %d", cut, err, valid, len(recs))
		}
	}
	bad := append([]byte{}, two...)
	bad[len(bad)-1] ^= 1
	if recs, valid, err := parseJournal(bad, "J"); err != nil || valid != len(one) || len(recs) != 1 {
		t.Fatalf("flipped byte: %v %d", err, valid)
	}
	// a torn header means no record
	if recs, _, err := parseJournal(one[:5], "J"); err != nil || recs != nil {
		t.Fatal(err)
	}
	// unknown version and bad magic are errors
	v2 := append([]byte{}, one...)
	v2[8] = 2
	if _, _, err := parseJournal(v2, "J"); !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("version 2: %v", err)
	}
	mg := append([]byte{}, one...)
	mg[0] = 'X'
	if _, _, err := parseJournal(mg, "J"); !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("magic: %v", err)
	}
	// a well-framed record with a bad body is an error
	body := []byte{9}
	fr := appendJournalRecord(journalHeader(), &JournalRecord{})
	fr = fr[:journalHdrLen]
	fr = append(fr, 1, 0, 0, 0)
	fr = append(fr, crcBytes(body)...)
	fr = append(fr, body...)
	if _, _, err := parseJournal(fr, "J"); !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("bad body: %v", err)
	}
}

func crcBytes(p []byte) []byte {
	c := crc32Castagnoli(p)
	return []byte{byte(c), byte(c >> 8), byte(c >> 16), byte(c >> 24)}
}

// FuzzJournal: parsing arbitrary bytes never panics; the valid prefix
// is within the input and its records re-encode and parse again.
func FuzzJournal(f *testing.F) {
	b, _ := hex.DecodeString(goldenJournal)
	f.Add(b)
	f.Add(appendJournalRecord(b, &JournalRecord{ID: "x~2"}))
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, valid, err := parseJournal(in, "J")
		if valid > len(in) {
			t.Fatalf("valid %d of %d", valid, len(in))
		}
		if err != nil || len(recs) == 0 {
			return
		}
		// canonical varints and a clipped source never take more room
		out := journalHeader()
		for i := range recs {
			out = appendJournalRecord(out, &recs[i])
		}
		if len(out) > valid {
			t.Fatalf("re-encoded %d bytes, valid prefix %d", len(out), valid)
		}
		again, _, err := parseJournal(out, "J")
		if err != nil || len(again) != len(recs) {
			t.Fatalf("re-encoded journal: %v, %d records of %d", err, len(again), len(recs))
		}
	})
}

// TestJournalDamagedMiddle: a bad checksum with records after it is a
// damaged byte, not a torn append: parsing names it, and the next
// import's append fails instead of cutting the committed records after
// it.
func TestJournalDamagedMiddle(t *testing.T) {
	one := appendJournalRecord(journalHeader(), &goldenRecord)
	two := appendJournalRecord(one, &JournalRecord{ID: "ev~2-cd"})
	bad := append([]byte{}, two...)
	bad[journalHdrLen+10] ^= 1
	_, _, err := parseJournal(bad, "J")
	if !errors.Is(err, chunk.ErrCorrupt) || !strings.Contains(err.Error(), "at byte 12") {
		t.Fatalf("flipped byte in the first record: %v", err)
	}
	t.Log(err)
	mem := vfs.NewMem()
	if err := mem.MkdirAll("st", 0o755); err != nil {
		t.Fatal(err)
	}
	f, _ := mem.Create("st/" + journalName)
	f.Write(bad)
	f.Close()
	if err := appendJournal(mem, "st", &JournalRecord{ID: "ev~3-ef"}); !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("append: %v", err)
	}
	g, _ := mem.Open("st/" + journalName)
	got, _ := io.ReadAll(g)
	g.Close()
	if !bytes.Equal(got, bad) {
		t.Fatal("the damaged journal was changed")
	}
}
