package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/ingest"
	pqin "github.com/tsqdb/tsq/ingest/parquet"
	"github.com/tsqdb/tsq/internal/progress"
)

func init() {
	register(&command{name: "import", short: "import JSON, CSV, line protocol, Prometheus text, Arrow or Parquet, bounded memory, atomic", usage: "[--stream S] [--format F] [--time F] [--series F] [--key F] [--op F] [--map K=V]... [--mapping FILE] FILE|DIR...|-",
		summary: "Import JSON lines, a JSON array, CSV, line protocol or Prometheus text (as it is or compressed\n" +
			"with gzip, zstd or bzip2), an Arrow IPC file or stream, or a Parquet file into a stream (a\n" +
			"stream exported by tsq as Arrow, Parquet, CSV or JSON lines imports back as it was: a\n" +
			"field named series is the series, and key and op the key and op). Memory is bounded\n" +
			"whatever the input size; the rows appear at once when the import commits, or not at all.\n" +
			"Several files are imported one after the other, each atomically, into --stream or each into\n" +
			"the stream named after it. A directory stands for the files under it that import reads by\n" +
			"their names, in path order, into one stream (--stream, its stream=NAME, or its name): a\n" +
			"dataset tsq export --partitioned wrote imports back whole.",
		run: runImport})
}

func runImport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("import")
	stream := fs.String("stream", "", "target `stream` (default: made of the file name: My Data.csv.gz, my_data)")
	format := fs.String("format", "", "input `format`: jsonl, json, csv, lp (line protocol), prom, arrow (default: guessed; Parquet is told by its bytes)")
	var m ingest.Mapping
	mapFlag := func(key string) func(string) error {
		return func(v string) error { return m.Set(key + "=" + v) }
	}
	fs.Func("time", "`field` or column holding the time (default: the first of time, timestamp, ts, ... the input has; '': the import's time)", mapFlag("time"))
	fs.Func("time-unit", "`unit` of a numeric time: s, ms, us, ns", mapFlag("time.unit"))
	fs.Func("time-layout", "Go `layout` of a text time (default: RFC 3339 and its relatives, PostgreSQL's, RFC 1123, the common log format and others; not 01/02/2006: month or day first is yours to say)", mapFlag("time.layout"))
	fs.Func("series", "`fields` whose values, joined by /, are the series", mapFlag("series"))
	fs.Func("key", "`fields` whose values, joined by /, are the key", mapFlag("key"))
	fs.Func("op", "`field` holding the op (put, delete, drop; create, modify, remove... map to them)", mapFlag("op"))
	fs.Func("map", "one mapping `setting` K=V (repeatable), e.g. type.id=int64, nested=json", m.Set)
	mappingFile := fs.String("mapping", "", "mapping `file` of K=V lines")
	skipBad := fs.Bool("skip-bad", false, "write malformed rows to the rejects file and go on")
	rejects := fs.String("rejects", "", "rejects `file` for --skip-bad (default FILE.rejects, or stderr for stdin)")
	var budget sizeFlag
	fs.Var(&budget, "memory", "memory `budget`: bytes, or with a unit, 256MiB, 1G (default 64 MiB)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
	switch {
	case len(paths) == 0:
		return errors.New("import: give a FILE (or several), or - for stdin")
	case len(paths) > 1 && slices.Contains(paths, "-"):
		return errors.New("import: - (stdin) is imported alone, not with files")
	case len(paths) > 1 && *rejects != "":
		return errors.New("import: --rejects names one file: with several inputs, each gets FILE.rejects")
	case paths[0] == "-" && *stream == "":
		return errors.New("import: --stream is needed when reading stdin")
	}
	timeGiven := false
	fs.Visit(func(f *flag.Flag) { timeGiven = timeGiven || f.Name == "time" })
	o := importOptions{mapping: m, skipBad: *skipBad, budget: budget.n}
	if *mappingFile != "" {
		f, err := os.Open(*mappingFile)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		fm, err := ingest.ParseMapping(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("import: mapping %s: %w", *mappingFile, err)
		}
		// Flags given on the command line win over the file.
		if err := mergeMapping(&fm, args); err != nil {
			return err
		}
		o.mapping = fm
	}
	// Without --time (or time= in the mapping file), a field named like a
	// time is the time; --time '' keeps the import's time.
	o.guessTime = !timeGiven && o.mapping.Time == ""
	if *format != "" {
		f, err := ingest.ParseFormat(*format)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		o.format = f
	}
	// A missing file or a name no stream can have stops the import
	// before any file. A directory stands for the files under it.
	var names, files []string
	for _, path := range paths {
		fi, err := os.Stat(path)
		if path != "-" && err != nil {
			return fmt.Errorf("import: %w", err)
		}
		name := *stream
		if path != "-" && fi.IsDir() {
			under, err := dataFiles(path)
			if err != nil {
				return fmt.Errorf("import: %w", err)
			}
			if name == "" {
				if name = dirStreamName(path); name == "" {
					return fmt.Errorf("import: no stream name can be made from directory %q: give --stream", path)
				}
			}
			for _, f := range under {
				files, names = append(files, f), append(names, name)
			}
			continue
		}
		if name == "" {
			if name = streamNameOf(path); name == "" {
				return fmt.Errorf("import: no stream name can be made from %q: give --stream", filepath.Base(path))
			}
		}
		files, names = append(files, path), append(names, name)
	}
	paths = files
	if len(paths) > 1 && *rejects != "" {
		return errors.New("import: --rejects names one file: with several inputs (a directory's too), each gets FILE.rejects")
	}
	o.noted = new(notes)
	st, err := e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	// Each file is its own atomic import, in the order given; the first
	// that fails stops the rest.
	for i, path := range paths {
		if err := importFile(ctx, e, st, path, names[i], *rejects, o); err != nil {
			if len(paths) > 1 {
				err = fmt.Errorf("%w (%d of %d files imported before %s, none after it)", err, i, len(paths), path)
			}
			return err
		}
	}
	return nil
}

// streamNameOf makes a stream name of a file name: without its
// extensions (data.csv.gz: data), lower case, each run of characters a
// stream name cannot hold as one '_' ("My Data (2).csv": my_data_2),
// at most tsq.MaxStreamNameLen bytes; "" when nothing is left.
func streamNameOf(path string) string {
	base := ingest.TrimCompressedExt(filepath.Base(path))
	base = strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))
	var b strings.Builder
	gap := false
	for _, c := range base {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.' || c == '-' || c == '_':
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			if b.Len() > 0 || c != '.' && c != '-' && c != '_' { // a name starts with a letter or digit
				b.WriteRune(c)
			}
			gap = false
		default:
			gap = true
		}
	}
	name := b.String()
	if len(name) > tsq.MaxStreamNameLen {
		name = name[:tsq.MaxStreamNameLen]
	}
	return strings.TrimRight(name, "_.-")
}

// importInput opens path (- for stdin) for an import: a Parquet file's
// rows as an Arrow stream (parquetRead then counts the file's bytes
// read), any other file as it is; it sets o's source, size and, for
// Parquet, format. closeInput closes what it opened.
func importInput(ctx context.Context, e *env, path string, o *importOptions) (r io.Reader, parquetRead *atomic.Int64, closeInput func(), err error) {
	o.source = path
	r, closeInput = e.stdin, func() {}
	if path == "-" {
		return r, nil, closeInput, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("import: %w", err)
	}
	closeInput = func() { f.Close() }
	if fi, err := f.Stat(); err == nil {
		o.size = fi.Size()
	}
	var magic [4]byte
	if n, _ := f.ReadAt(magic[:], 0); n != 4 || string(magic[:]) != pqin.Magic {
		return f, nil, closeInput, nil
	}
	// Parquet: its rows as an Arrow stream (the footer first)
	parquetRead = new(atomic.Int64)
	budget := cmp.Or(o.budget, tsq.DefaultImportBudget)
	ps, err := pqin.NewStream(ctx, countingReaderAt{f, parquetRead}, o.size, int(budget/16))
	if err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("import: %s: %w", path, err)
	}
	o.format = ingest.Arrow
	return ps, parquetRead, func() { ps.Close(); f.Close() }, nil
}

// importFile imports path (- for stdin) into stream name, prints its
// summary line and, when the times look misread, a note.
func importFile(ctx context.Context, e *env, st *tsq.Store, path, name, rejects string, o importOptions) error {
	r, parquetRead, closeInput, err := importInput(ctx, e, path, &o)
	if err != nil {
		return err
	}
	defer closeInput()
	if o.skipBad {
		rp := rejects
		if rp == "" && path != "-" {
			rp = path + ".rejects"
		}
		if rp == "" {
			o.rejects = e.stderr
		} else {
			rf, err := os.Create(rp)
			if err != nil {
				return fmt.Errorf("import: rejects: %w", err)
			}
			defer rf.Close()
			o.rejects = rf
		}
	}
	total := o.size
	if total == 0 {
		total = -1
	}
	bar := progress.New(e.stderr, total, "import "+name, progress.Bytes)
	o.progress = func(p tsq.ImportProgress) {
		bar.Describe(importStatus(name, p))
		if parquetRead != nil {
			bar.Set(parquetRead.Load()) // of the file, not of the Arrow stream made of it
		} else {
			bar.Set(p.ReadBytes) // of the file as it is, compressed or not: as total
		}
	}
	stats, err := importStream(ctx, st, name, r, o)
	bar.Done()
	if err != nil && stats.TimeField != "" && strings.Contains(err.Error(), fmt.Sprintf("time field %q", stats.TimeField)) {
		return fmt.Errorf("%w (the time was taken from field %q, as its name suggests: give --time FIELD, with --time-layout for text times, or --time '' for the import's time)", err, stats.TimeField)
	}
	if err != nil {
		return err
	}
	seqs := fmt.Sprintf(" as seqs %d..%d", stats.FirstSeq, stats.LastSeq)
	if stats.Rows == 0 {
		seqs = "" // nothing committed
	}
	read := humanBytes(stats.Bytes) + " read"
	if parquetRead != nil {
		read = fmt.Sprintf("%s of Parquet read as %s of Arrow", humanBytes(parquetRead.Load()), humanBytes(stats.Bytes))
	} else if stats.Compression != ingest.Uncompressed {
		read = fmt.Sprintf("%s of %s read, %s decompressed", humanBytes(stats.ReadBytes), stats.Compression, humanBytes(stats.Bytes))
	}
	if stats.UTF16 {
		read += ", UTF-16 text read as UTF-8"
	}
	fmt.Fprintf(e.stdout, "imported %s (%s) into %s%s in %s; peak heap %s",
		countOf(stats.Rows, "row"), read, name, seqs, stats.Total.Round(1e6), humanBytes(int64(stats.PeakHeap)))
	if stats.Rejected > 0 {
		fmt.Fprintf(e.stdout, "; %d rejected", stats.Rejected)
	}
	fmt.Fprintln(e.stdout)
	if stats.TimeField != "" {
		if o.noted == nil || o.noted.time != stats.TimeField { // once for the files of a run
			fmt.Fprintf(e.stderr, "tsq: note: times from field %q (--time picks another; --time '' gives every row the import's time)\n", stats.TimeField)
			if o.noted != nil {
				o.noted.time = stats.TimeField
			}
		}
		o.mapping.Time = stats.TimeField
	}
	if note := recordFieldsNote(stats.RecordFields); note != "" && (o.noted == nil || o.noted.fields != note) {
		fmt.Fprintln(e.stderr, "tsq: note: "+note)
		if o.noted != nil {
			o.noted.fields = note
		}
	}
	if hint := timeUnitHint(o.mapping, stats); hint != "" {
		fmt.Fprintln(e.stderr, "tsq: note: "+hint)
	}
	return nil
}

// timeUnitHint returns a note when every imported time lies before 1973
// in the unit numbers were read in by default (ms; ns for line protocol)
// and would lie between 1973 and 2100 in a coarser unit: unix seconds
// read as milliseconds land in January 1970, silently. Empty when the
// unit was given or the times look right.
func timeUnitHint(m ingest.Mapping, st importStats) string {
	const y1973, y2100 = int64(1e17), int64(4102444800) * 1e9 // ns
	timed := m.Time != "" || st.Format == ingest.LineProtocol // else the time of the import
	if st.Format == ingest.Arrow {
		return "" // typed times carry their unit
	}
	if !timed || m.TimeUnit != "" || st.Rows == 0 || st.MinTime < 0 || st.MaxTime >= y1973 {
		return ""
	}
	def, defName := int64(1e6), "milliseconds"
	if st.Format == ingest.LineProtocol {
		def, defName = 1, "nanoseconds"
	}
	latest := st.MaxTime / def // as written in the input
	for _, u := range []struct {
		flag, name string
		ns         int64
	}{{"s", "seconds", 1e9}, {"ms", "milliseconds", 1e6}, {"us", "microseconds", 1e3}} {
		if u.ns <= def || latest > y2100/u.ns {
			continue
		}
		if t := latest * u.ns; t >= y1973 {
			return fmt.Sprintf("every imported time is before 1973 read as %s (the latest: %s); if the times are unix %s, import again with --time-unit %s",
				defName, time.Unix(0, st.MaxTime).UTC().Format(time.RFC3339Nano), u.name, u.flag)
		}
	}
	return ""
}

// mergeMapping applies the mapping flags of args on top of a mapping file.
func mergeMapping(m *ingest.Mapping, args []string) error {
	keys := map[string]string{"time": "time", "time-unit": "time.unit", "time-layout": "time.layout",
		"series": "series", "key": "key", "op": "op"}
	for i := 0; i < len(args); i++ {
		a := strings.TrimLeft(args[i], "-")
		if a == args[i] {
			continue // not a flag
		}
		k, v, hasV := strings.Cut(a, "=")
		mk, ok := keys[k]
		if !ok && k != "map" {
			continue
		}
		if !hasV && i+1 < len(args) {
			i++
			v = args[i]
		}
		if k == "map" {
			if err := m.Set(v); err != nil {
				return fmt.Errorf("import: --map %s: %w", v, err)
			}
			continue
		}
		if err := m.Set(mk + "=" + v); err != nil {
			return fmt.Errorf("import: --%s: %w", k, err)
		}
	}
	return nil
}

// importStatus is the title of the import's progress bar: the bar shows
// bytes read, MB/s and the ETA; the title adds rows, rows/s and the heap.
func importStatus(stream string, p tsq.ImportProgress) string {
	return fmt.Sprintf("import %s: %s rows, %s rows/s, heap %s", stream, humanCount(p.Rows), humanCount(int64(p.RowsPerSec)), humanBytes(int64(p.HeapInUse)))
}

// humanCount writes n as 950, 12.3k, 4.56M, ...
func humanCount(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	case n < 1_000_000_000:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2fG", float64(n)/1e9)
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n *atomic.Int64
}

func (c countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// dataFiles lists the files under dir that import reads by their names
// (data.csv, part-0.parquet, logs.jsonl.gz...), recursively, in path
// order: the parts of a dataset tsq export --partitioned wrote come
// date by date. Hidden files and directories (.x, _x) are skipped.
func dataFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name := d.Name(); p != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		regular := d.Type().IsRegular()
		if d.Type()&fs.ModeSymlink != 0 { // a linked file counts as the file
			fi, err := os.Stat(p)
			regular = err == nil && fi.Mode().IsRegular()
		}
		if regular && (ingest.FormatFromPath(p) != ingest.Guess || strings.EqualFold(filepath.Ext(p), ".parquet")) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, naturalCompare)
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no file import reads by its name (.csv, .jsonl, .json, .lp, .prom, .arrow, .parquet..., compressed or not)", dir)
	}
	return out, nil
}

// dirStreamName names the stream of a directory's files: NAME of a
// Hive-style stream=NAME directory (as tsq export --partitioned writes
// it) at its end or above a date=... one, else the directory's name.
func dirStreamName(dir string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(dir)), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(parts[i], "stream="); ok {
			if tsq.ValidateStreamName(v) == nil {
				return v
			}
			return streamNameOf(v)
		}
		if !strings.Contains(parts[i], "=") {
			break
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return streamNameOf(filepath.Base(abs))
}

// naturalCompare orders paths with runs of digits compared as numbers:
// part-2 before part-10.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			x, y := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(x), len(y)); c != 0 {
				return c
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun is the length of the run of ASCII digits s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// recordFieldsNote says which fields an import took the series, key and
// op from (series, key, op: "" for none); "" when it took none.
func recordFieldsNote(fields []string) string {
	var took, flags []string
	for i, what := range []string{"series", "key", "op"} {
		if i < len(fields) && fields[i] != "" {
			took = append(took, fmt.Sprintf("%s from field %q", what, fields[i]))
			flags = append(flags, "--"+what)
		}
	}
	if len(took) == 0 {
		return ""
	}
	return fmt.Sprintf("%s (%s name others)", strings.Join(took, ", "), strings.Join(flags, ", "))
}
