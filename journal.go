package tsq

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

// The import journal of a stream: streams/<stream>/JOURNAL, one record
// per committed import. Bytes in docs/FORMAT.md, "Import journal".
const (
	journalName    = "JOURNAL"
	journalMagic   = "TSQJRNL\x00"
	journalVersion = 1
	journalHdrLen  = 12 // magic, version u16, reserved u16
	// maxJournalRecord bounds one record's payload.
	maxJournalRecord = 1 << 20
	recImport        = 1 // record type: an import committed
	maxSourceLen     = 4096
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// JournalRecord is one committed import.
type JournalRecord struct {
	ID       string
	Source   string
	Rows     int64
	Bytes    int64 // input bytes
	FirstSeq uint64
	LastSeq  uint64 // 0 with FirstSeq 0 when no row was imported
	Time     int64  // commit time, ns since the epoch
	Segments []string
}

func appendJournalRecord(dst []byte, r *JournalRecord) []byte {
	var p []byte
	p = append(p, recImport)
	p = binary.AppendUvarint(p, uint64(len(r.ID)))
	p = append(p, r.ID...)
	src := r.Source
	if len(src) > maxSourceLen {
		src = src[:maxSourceLen]
	}
	p = binary.AppendUvarint(p, uint64(len(src)))
	p = append(p, src...)
	p = binary.AppendUvarint(p, uint64(r.Rows))
	p = binary.AppendUvarint(p, uint64(r.Bytes))
	p = binary.AppendUvarint(p, r.FirstSeq)
	p = binary.AppendUvarint(p, r.LastSeq)
	p = binary.AppendVarint(p, r.Time)
	p = binary.AppendUvarint(p, uint64(len(r.Segments)))
	for _, s := range r.Segments {
		p = binary.AppendUvarint(p, uint64(len(s)))
		p = append(p, s...)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(p)))
	dst = binary.LittleEndian.AppendUint32(dst, crc32.Checksum(p, castagnoli))
	return append(dst, p...)
}

func journalHeader() []byte {
	h := []byte(journalMagic)
	h = binary.LittleEndian.AppendUint16(h, journalVersion)
	return binary.LittleEndian.AppendUint16(h, 0)
}

// errJournal wraps the description of a corrupt journal.
func errJournal(path string, off int, msg string) error {
	return fmt.Errorf("tsq: journal %s at byte %d: %s: %w", path, off, msg, chunk.ErrCorrupt)
}

// parseJournal decodes a journal file. It returns the records and the
// length of the valid prefix: a torn or corrupt last record (a crash
// while appending) ends the valid prefix; anything else that is wrong,
// a bad checksum with records after it included, is an error.
func parseJournal(b []byte, path string) ([]JournalRecord, int, error) {
	if len(b) < journalHdrLen {
		return nil, 0, nil // torn creation: no record was ever committed
	}
	if string(b[:8]) != journalMagic {
		return nil, 0, errJournal(path, 0, "bad magic")
	}
	if v := binary.LittleEndian.Uint16(b[8:]); v != journalVersion {
		return nil, 0, errJournal(path, 8, fmt.Sprintf("version %d, this build reads %d", v, journalVersion))
	}
	var recs []JournalRecord
	off := journalHdrLen
	for off < len(b) {
		if len(b)-off < 8 {
			break // torn frame header
		}
		n := int(binary.LittleEndian.Uint32(b[off:]))
		crc := binary.LittleEndian.Uint32(b[off+4:])
		if n > maxJournalRecord {
			break
		}
		if len(b)-off-8 < n {
			break // torn: the tail of an interrupted append
		}
		if crc32.Checksum(b[off+8:off+8+n], castagnoli) != crc {
			if off+8+n == len(b) {
				break // the last record: an interrupted append
			}
			// Records follow: not a torn append but a damaged byte.
			// Cutting here would drop committed records.
			return recs, off, errJournal(path, off, fmt.Sprintf("checksum mismatch with %d bytes of records after it", len(b)-off-8-n))
		}
		r, err := decodeJournalRecord(b[off+8 : off+8+n])
		if err != nil {
			return recs, off, errJournal(path, off, err.Error())
		}
		recs = append(recs, r)
		off += 8 + n
	}
	return recs, off, nil
}

func decodeJournalRecord(p []byte) (JournalRecord, error) {
	var r JournalRecord
	if len(p) == 0 || p[0] != recImport {
		return r, errors.New("unknown record type")
	}
	p = p[1:]
	bad := errors.New("truncated record")
	uv := func() uint64 {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			p = nil
			return 0
		}
		p = p[n:]
		return v
	}
	str := func() (string, bool) {
		n := uv()
		if n > uint64(len(p)) {
			return "", false
		}
		s := string(p[:n])
		p = p[n:]
		return s, true
	}
	var ok bool
	if r.ID, ok = str(); !ok {
		return r, bad
	}
	if r.Source, ok = str(); !ok {
		return r, bad
	}
	r.Rows, r.Bytes = int64(uv()), int64(uv())
	r.FirstSeq, r.LastSeq = uv(), uv()
	t, n := binary.Varint(p)
	if n <= 0 {
		return r, bad
	}
	r.Time, p = t, p[n:]
	nseg := uv()
	if nseg > uint64(len(p)) {
		return r, bad
	}
	for range nseg {
		s, ok := str()
		if !ok {
			return r, bad
		}
		r.Segments = append(r.Segments, s)
	}
	return r, nil
}

// readJournal reads the journal of the stream in dir (none: no records).
func readJournal(fsys vfs.FS, dir string) ([]JournalRecord, int, int64, error) {
	path := filepath.Join(dir, journalName)
	f, err := fsys.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, 0, nil
	}
	if err != nil {
		return nil, 0, 0, fmt.Errorf("tsq: journal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, 0, fmt.Errorf("tsq: journal: %w", err)
	}
	if fi.Size() > 1<<30 {
		return nil, 0, 0, errJournal(path, 0, "larger than 1 GiB")
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, fi.Size()), b); err != nil {
		return nil, 0, 0, fmt.Errorf("tsq: journal %s: %w", path, err)
	}
	recs, valid, err := parseJournal(b, path)
	return recs, valid, fi.Size(), err
}

// appendJournal appends r to the journal of the stream in dir and
// fsyncs it: the commit point of an import. A torn tail left by an
// earlier crash is cut first.
func appendJournal(fsys vfs.FS, dir string, r *JournalRecord) error {
	path := filepath.Join(dir, journalName)
	_, valid, size, err := readJournal(fsys, dir)
	if err != nil {
		return err
	}
	var f vfs.File
	if size == 0 {
		if f, err = fsys.Create(path); err != nil {
			return fmt.Errorf("tsq: journal: %w", err)
		}
		if _, err = f.Write(journalHeader()); err == nil {
			if err = f.Sync(); err == nil {
				err = fsys.SyncDir(dir)
			}
		}
		if err != nil {
			_ = f.Close()
			return fmt.Errorf("tsq: journal %s: %w", path, err)
		}
		_ = f.Close()
		valid = journalHdrLen
	} else if valid < journalHdrLen {
		valid = 0
	}
	if f, err = fsys.OpenAppend(path); err != nil {
		return fmt.Errorf("tsq: journal: %w", err)
	}
	defer f.Close()
	if int64(valid) < size && size > 0 {
		if err := f.Truncate(int64(valid)); err != nil {
			return fmt.Errorf("tsq: journal %s: cut torn tail: %w", path, err)
		}
		if valid == 0 {
			if _, err := f.Write(journalHeader()); err != nil {
				return fmt.Errorf("tsq: journal %s: %w", path, err)
			}
		}
	}
	if _, err := f.Write(appendJournalRecord(nil, r)); err != nil {
		return fmt.Errorf("tsq: journal %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("tsq: journal %s: %w", path, err)
	}
	return nil
}

// Imports returns the committed imports of a stream, oldest first, from
// its journal.
func (s *Store) Imports(stream string) ([]JournalRecord, error) {
	if err := ValidateStreamName(stream); err != nil {
		return nil, err
	}
	recs, _, _, err := readJournal(s.fs, filepath.Join(s.streamsDir(), stream))
	return recs, err
}

func crc32Castagnoli(p []byte) uint32 { return crc32.Checksum(p, castagnoli) }
