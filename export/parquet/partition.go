package parquet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/export"
)

const dayNanos = int64(24 * time.Hour)

// WritePartitioned writes rr as a Hive-style partitioned Parquet dataset
//
//	dir/stream=<stream>/date=<yyyy-mm-dd>/part-N.parquet
//
// split by the UTC date of the "time" column, which Spark, Trino and DuckDB
// (hive_partitioning) read as one dataset with stream and date columns.
// Rows may come in any time order. At most Options.MaxOpenFiles files are
// open at once; when a new date needs a file past that bound the least
// recently written file is finished, and later rows of its date go to the
// next part-N. N starts after the highest part already in a date directory,
// so existing files are never overwritten.
//
// dir must exist. Every file is written atomically (temporary file, fsync,
// rename, directory fsync). On any error, including ctx cancellation or a
// failing reader, the files and directories this call created are removed.
func WritePartitioned(ctx context.Context, dir, stream string, rr array.RecordReader, o *export.Options) (export.Stats, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if rr == nil {
		return export.Stats{}, errors.New("export: nil record reader")
	}
	if err := validStream(stream); err != nil {
		return export.Stats{}, err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return export.Stats{}, fmt.Errorf("export: partition root: %w", err)
	}
	if !fi.IsDir() {
		return export.Stats{}, fmt.Errorf("export: partition root %q is not a directory", dir)
	}
	p, err := newPartitioner(dir, stream, rr.Schema(), o)
	if err != nil {
		return export.Stats{}, err
	}
	st, err := p.run(ctx, rr)
	if err != nil {
		p.cleanup()
		return export.Stats{}, fmt.Errorf("export partitioned %q: %w (removed the files written so far)", filepath.Join(dir, "stream="+stream), err)
	}
	return st, nil
}

// validStream accepts tsq stream names, [a-z0-9][a-z0-9_.-]{0,63}, which
// need no escaping in a partition directory name.
func validStream(s string) error {
	if len(s) == 0 || len(s) > 64 {
		return fmt.Errorf("export: invalid stream name %q: must be 1 to 64 characters", s)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || i > 0 && (c == '_' || c == '.' || c == '-') {
			continue
		}
		return fmt.Errorf("export: invalid stream name %q: character %q at position %d", s, c, i)
	}
	return nil
}

type partFile struct {
	date    int64 // days since the epoch
	af      *export.AtomicFile
	cw      *countWriter
	w       *Writer
	lastUse int64
}

type partitioner struct {
	root, streamDir string
	schema          *arrow.Schema // input schema
	plain           *export.Plain
	timeCol         int
	unitNanos       int64
	o               *export.Options
	open            map[int64]*partFile
	nextPart        map[int64]int
	clock           int64
	done            []string // committed files, removed on error
	madeDirs        []string // directories created, removed (if empty) on error
	st              export.Stats
}

func newPartitioner(dir, stream string, schema *arrow.Schema, o *export.Options) (*partitioner, error) {
	idx := schema.FieldIndices("time")
	if len(idx) != 1 {
		return nil, fmt.Errorf("export: partitioning needs exactly one \"time\" column, schema %v has %d", schema, len(idx))
	}
	tt, ok := schema.Field(idx[0]).Type.(*arrow.TimestampType)
	if !ok {
		return nil, fmt.Errorf("export: partitioning needs a timestamp \"time\" column, got %v", schema.Field(idx[0]).Type)
	}
	plain, err := export.NewPlain(schema)
	if err != nil {
		return nil, err
	}
	return &partitioner{
		root:      dir,
		streamDir: filepath.Join(dir, "stream="+stream),
		schema:    schema,
		plain:     plain,
		timeCol:   idx[0],
		unitNanos: int64(tt.Unit.Multiplier()),
		o:         o,
		open:      map[int64]*partFile{},
		nextPart:  map[int64]int{},
	}, nil
}

func (p *partitioner) run(ctx context.Context, rr array.RecordReader) (export.Stats, error) {
	for {
		if err := ctx.Err(); err != nil {
			return p.st, fmt.Errorf("cancelled after %d rows: %w", p.st.Rows, err)
		}
		if !rr.Next() {
			break
		}
		rec := rr.RecordBatch()
		if rec == nil || rec.NumRows() == 0 {
			continue
		}
		if err := p.write(ctx, rec); err != nil {
			return p.st, fmt.Errorf("batch at row %d: %w", p.st.Rows, err)
		}
		p.st.Rows += rec.NumRows()
		if p.o != nil && p.o.Progress != nil {
			p.o.Progress(p.st.Rows, p.bytes())
		}
	}
	if err := rr.Err(); err != nil {
		return p.st, fmt.Errorf("reading input after %d rows: %w", p.st.Rows, err)
	}
	if err := ctx.Err(); err != nil {
		return p.st, fmt.Errorf("cancelled after %d rows: %w", p.st.Rows, err)
	}
	dates := make([]int64, 0, len(p.open))
	for d := range p.open {
		dates = append(dates, d)
	}
	slices.Sort(dates)
	for _, d := range dates {
		if err := p.finish(p.open[d]); err != nil {
			return p.st, err
		}
	}
	return p.st, nil
}

func (p *partitioner) bytes() int64 {
	n := p.st.Bytes
	for _, f := range p.open {
		n += f.cw.n
	}
	return n
}

// write splits rec by UTC date and appends each part to its date's file.
func (p *partitioner) write(ctx context.Context, rec arrow.RecordBatch) error {
	ts, ok := rec.Column(p.timeCol).(*array.Timestamp)
	if !ok {
		return fmt.Errorf("column \"time\" is %v, want a timestamp array", rec.Column(p.timeCol).DataType())
	}
	n := int(rec.NumRows())
	days := make([]int64, n)
	runs := 1
	for i := 0; i < n; i++ {
		if ts.IsNull(i) {
			return fmt.Errorf("row %d: null time cannot be partitioned by date", i)
		}
		days[i] = floorDiv(int64(ts.Value(i)), dayNanos/p.unitNanos)
		if i > 0 && days[i] != days[i-1] {
			runs++
		}
	}
	if runs == 1 {
		return p.append(days[0], rec)
	}
	// Few long runs: write zero-copy slices. Otherwise gather each date's
	// rows with one Take per date.
	if runs*64 <= n {
		for i := 0; i < n; {
			j := i + 1
			for j < n && days[j] == days[i] {
				j++
			}
			s := rec.NewSlice(int64(i), int64(j))
			err := p.append(days[i], s)
			s.Release()
			if err != nil {
				return err
			}
			i = j
		}
		return nil
	}
	plain, err := p.plain.Record(rec) // Take on plain strings, not dictionaries
	if err != nil {
		return err
	}
	defer plain.Release()
	byDay := map[int64][]int32{}
	var order []int64
	for i, d := range days {
		if _, ok := byDay[d]; !ok {
			order = append(order, d)
		}
		byDay[d] = append(byDay[d], int32(i))
	}
	for _, d := range order {
		b := array.NewInt32Builder(memory.DefaultAllocator)
		b.AppendValues(byDay[d], nil)
		idx := b.NewArray()
		b.Release()
		out, err := compute.Take(ctx, *compute.DefaultTakeOptions(), compute.NewDatum(plain), compute.NewDatum(idx))
		idx.Release()
		if err != nil {
			return fmt.Errorf("gathering rows of %s: %w", dateString(d), err)
		}
		sub := out.(*compute.RecordDatum).Value
		err = p.append(d, sub)
		out.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func dateString(day int64) string {
	return time.Unix(day*86400, 0).UTC().Format(time.DateOnly)
}

func (p *partitioner) append(day int64, rec arrow.RecordBatch) error {
	f := p.open[day]
	if f == nil {
		var err error
		if f, err = p.openPart(day); err != nil {
			return err
		}
	}
	p.clock++
	f.lastUse = p.clock
	if err := f.w.Write(rec); err != nil {
		return fmt.Errorf("%s: %w", f.af.Path(), err)
	}
	return nil
}

func (p *partitioner) openPart(day int64) (*partFile, error) {
	if len(p.open) >= p.o.OpenFiles() {
		var lru *partFile
		for _, f := range p.open {
			if lru == nil || f.lastUse < lru.lastUse {
				lru = f
			}
		}
		if err := p.finish(lru); err != nil {
			return nil, err
		}
	}
	ddir := filepath.Join(p.streamDir, "date="+dateString(day))
	if err := p.mkdir(p.streamDir); err != nil {
		return nil, err
	}
	if err := p.mkdir(ddir); err != nil {
		return nil, err
	}
	n, ok := p.nextPart[day]
	if !ok {
		var err error
		if n, err = firstFreePart(ddir); err != nil {
			return nil, err
		}
	}
	p.nextPart[day] = n + 1
	af, err := export.CreateAtomic(filepath.Join(ddir, "part-"+strconv.Itoa(n)+".parquet"))
	if err != nil {
		return nil, err
	}
	cw := &countWriter{w: af}
	w, err := newWriter(cw, p.schema, p.o)
	if err != nil {
		af.Abort()
		return nil, err
	}
	f := &partFile{date: day, af: af, cw: cw, w: w}
	p.open[day] = f
	return f, nil
}

// mkdir creates dir if missing and remembers it for cleanup.
func (p *partitioner) mkdir(dir string) error {
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%q exists and is not a directory", dir)
		}
		return nil
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("creating partition directory: %w", err)
	}
	p.madeDirs = append(p.madeDirs, dir)
	return nil
}

// firstFreePart returns 1 + the highest N of part-N.parquet in dir, or 0.
func firstFreePart(dir string) (int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("listing partition: %w", err)
	}
	next := 0
	for _, e := range ents {
		s, ok := strings.CutPrefix(e.Name(), "part-")
		if !ok {
			continue
		}
		s, ok = strings.CutSuffix(s, ".parquet")
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(s); err == nil && n >= next {
			next = n + 1
		}
	}
	return next, nil
}

// finish closes a file and moves it into place.
func (p *partitioner) finish(f *partFile) error {
	delete(p.open, f.date)
	if err := f.w.Close(); err != nil {
		f.af.Abort()
		return fmt.Errorf("%s: %w", f.af.Path(), err)
	}
	if err := f.af.Commit(); err != nil {
		return err
	}
	p.done = append(p.done, f.af.Path())
	p.st.Bytes += f.cw.n
	p.st.Files++
	return nil
}

// cleanup removes everything this call wrote: open temporaries, finished
// files and the directories it created (if now empty).
func (p *partitioner) cleanup() {
	for _, f := range p.open {
		f.af.Abort()
	}
	p.open = nil
	for _, path := range p.done {
		os.Remove(path)
	}
	for i := len(p.madeDirs) - 1; i >= 0; i-- {
		os.Remove(p.madeDirs[i])
	}
}

type countWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
