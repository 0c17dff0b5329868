package check

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"path/filepath"
	"strconv"

	"github.com/tsqdb/tsq/internal/vfs"
)

// The import journal of a stream, streams/<stream>/JOURNAL (docs/FORMAT.md,
// "Import journal"). Decoded here on its own, from the documented layout,
// so that the check does not trust the code it checks.
const (
	journalName      = "JOURNAL"
	journalMagic     = "TSQJRNL\x00"
	journalVersion   = 1
	journalHdrLen    = 12
	maxJournalRecord = 1 << 20
	recImport        = 1
	maxSourceLen     = 4096
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// journalRecord is the part of a record the check uses.
type journalRecord struct {
	off      int64 // of its frame
	id       string
	rows     uint64
	first    uint64
	last     uint64
	segments []string
}

// segSeqs is the seq range of a segment's blocks, from its index.
type segSeqs struct {
	min, max uint64
	blocks   int
}

// checkJournals checks the journal of every stream directory: header,
// each record's frame, CRC-32C and fields, and that every committed
// import names segments that exist and whose blocks hold exactly its seqs.
// seqs holds the block seq ranges of the segments checked, by path.
func checkJournals(fsys vfs.FS, dir string, seqs map[string]segSeqs, rep *Report) {
	root := filepath.Join(dir, "streams")
	names, err := fsys.ReadDir(root)
	if err != nil {
		return
	}
	for _, st := range names {
		sdir := filepath.Join(root, st)
		p := filepath.Join(sdir, journalName)
		if _, err := fsys.Stat(p); err != nil {
			continue
		}
		rel, _ := filepath.Rel(dir, p)
		rep.Journals++
		recs, probs := readJournal(fsys, p, rel)
		rep.Problems = append(rep.Problems, probs...)
		rep.Problems = append(rep.Problems, checkRevisions(fsys, dir, sdir, rel, recs, seqs)...)
	}
}

// readJournal decodes the journal at p. A frame cut short at the end of
// the file is the torn tail of an interrupted append, which the next
// import cuts: not a problem. Anything else that does not decode is.
func readJournal(fsys vfs.FS, p, rel string) ([]journalRecord, []Problem) {
	bad := func(off int64, sec, format string, a ...any) []Problem {
		return []Problem{{File: rel, Section: sec, Offset: off, Msg: fmt.Sprintf(format, a...)}}
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, bad(-1, "file", "%v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, bad(-1, "file", "%v", err)
	}
	if fi.Size() > 1<<30 {
		return nil, bad(0, "file", "larger than 1 GiB")
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, fi.Size()), b); err != nil {
		return nil, bad(-1, "file", "%v", err)
	}
	if len(b) < journalHdrLen {
		return nil, nil // a creation cut by a crash: no record
	}
	if string(b[:8]) != journalMagic {
		return nil, bad(0, "journal header", "bad magic %q", b[:8])
	}
	if v := binary.LittleEndian.Uint16(b[8:]); v != journalVersion {
		return nil, bad(8, "journal header", "version %d, this build reads %d", v, journalVersion)
	}
	var recs []journalRecord
	off := journalHdrLen
	for i := 0; off < len(b); i++ {
		sec := "record " + strconv.Itoa(i)
		if len(b)-off < 8 {
			return recs, nil // torn frame header at the end
		}
		n := int(binary.LittleEndian.Uint32(b[off:]))
		crc := binary.LittleEndian.Uint32(b[off+4:])
		if n > maxJournalRecord {
			return recs, bad(int64(off), sec, "payload length %d over the limit %d", n, maxJournalRecord)
		}
		if len(b)-off-8 < n {
			return recs, nil // torn: the tail of an interrupted append
		}
		payload := b[off+8 : off+8+n]
		if got := crc32.Checksum(payload, castagnoli); got != crc {
			msg := fmt.Sprintf("checksum mismatch: CRC-32C %08x, frame says %08x", got, crc)
			if off+8+n == len(b) {
				msg += " (the last record: an append cut by a crash, or a damaged byte)"
			} else {
				msg += fmt.Sprintf("; %d bytes of records follow, which the store does not read", len(b)-off-8-n)
			}
			return recs, bad(int64(off), sec, "%s", msg)
		}
		r, err := decodeRecord(payload)
		if err != nil {
			return recs, bad(int64(off), sec, "%v", err)
		}
		r.off = int64(off)
		recs = append(recs, r)
		off += 8 + n
	}
	return recs, nil
}

func decodeRecord(p []byte) (journalRecord, error) {
	var r journalRecord
	if len(p) == 0 || p[0] != recImport {
		return r, errors.New("unknown record type")
	}
	p = p[1:]
	var err error
	uv := func(what string) uint64 {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			if err == nil {
				err = fmt.Errorf("truncated record: %s", what)
			}
			p = nil
			return 0
		}
		p = p[n:]
		return v
	}
	str := func(what string, limit int) string {
		n := uv(what + " length")
		if err == nil && (n > uint64(len(p)) || limit > 0 && n > uint64(limit)) {
			err = fmt.Errorf("%s length %d: past the record or over the limit", what, n)
		}
		if err != nil {
			return ""
		}
		s := string(p[:n])
		p = p[n:]
		return s
	}
	r.id = str("id", 0)
	str("source", maxSourceLen)
	r.rows = uv("rows")
	uv("input bytes")
	r.first, r.last = uv("first seq"), uv("last seq")
	if err == nil {
		if _, n := binary.Varint(p); n <= 0 {
			err = errors.New("truncated record: time")
		} else {
			p = p[n:]
		}
	}
	nseg := uv("segment count")
	if err == nil && nseg > uint64(len(p)) {
		err = fmt.Errorf("segment count %d past the record", nseg)
	}
	for i := uint64(0); err == nil && i < nseg; i++ {
		r.segments = append(r.segments, str("segment name", 0))
	}
	if err == nil && len(p) > 0 {
		err = fmt.Errorf("%d bytes after the last field", len(p))
	}
	return r, err
}

// checkRevisions checks the committed imports against the stream's
// segments: seqs counted right and above the previous import's, each
// segment named present (or still in the import's staging directory,
// which the next open moves into the stream), and the segments' blocks
// spanning exactly the import's seqs.
func checkRevisions(fsys vfs.FS, dir, sdir, rel string, recs []journalRecord, seqs map[string]segSeqs) []Problem {
	var out []Problem
	var prevLast uint64
	for i, r := range recs {
		add := func(format string, a ...any) {
			out = append(out, Problem{File: rel, Section: "record " + strconv.Itoa(i) + " (import " + r.id + ")",
				Offset: r.off, Msg: fmt.Sprintf(format, a...)})
		}
		if r.rows == 0 {
			if r.first != 0 || r.last != 0 || len(r.segments) > 0 {
				add("no rows but seqs %d..%d and %d segments", r.first, r.last, len(r.segments))
			}
			continue
		}
		if r.first == 0 || r.last < r.first || r.last-r.first+1 != r.rows {
			add("%d rows but seqs %d..%d", r.rows, r.first, r.last)
			continue
		}
		if r.first <= prevLast {
			add("seqs %d..%d overlap an earlier import's (up to %d)", r.first, r.last, prevLast)
		}
		prevLast = r.last
		if len(r.segments) == 0 {
			add("%d rows but no segment", r.rows)
			continue
		}
		lo, hi, known := uint64(0), uint64(0), true
		for _, name := range r.segments {
			if filepath.Base(name) != name || name == "" {
				add("segment name %q is not a file name", name)
				known = false
				continue
			}
			p := filepath.Join(sdir, name)
			if _, err := fsys.Stat(p); err != nil {
				pending := filepath.Join(dir, "staging", r.id+".commit", name)
				if _, err := fsys.Stat(pending); err == nil {
					known = false // rolled forward at the next open
					continue
				}
				add("segment %s is missing: seqs %d..%d are not in the store", name, r.first, r.last)
				known = false
				continue
			}
			ss, ok := seqs[p]
			if !ok {
				known = false // unreadable: reported with the segment
				continue
			}
			if ss.blocks == 0 {
				continue
			}
			if lo == 0 || ss.min < lo {
				lo = ss.min
			}
			hi = max(hi, ss.max)
		}
		if known && (lo != r.first || hi != r.last) {
			add("seqs %d..%d, but its segments hold seqs %d..%d", r.first, r.last, lo, hi)
		}
	}
	return out
}
