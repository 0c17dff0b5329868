package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tsqdb/tsq/internal/progress"
)

func init() {
	register(&command{name: "import", usage: "[--stream S] [--format F] [mapping flags] FILE|-",
		summary: "Import JSON lines, a JSON array, CSV, line protocol or Prometheus text into a stream,\n" +
			"with bounded memory, committed atomically.",
		run: runImport})
}

func runImport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("import")
	stream := fs.String("stream", "", "target `stream` (default: the file name without extension)")
	var o importOptions
	fs.StringVar(&o.format, "format", "", "input `format`: jsonl, json, csv, influx, prom (default: guessed)")
	fs.StringVar(&o.timeField, "time", "", "`field` or column holding the time")
	fs.StringVar(&o.seriesField, "series", "", "`field` or column holding the series")
	fs.StringVar(&o.keyField, "key", "", "`field` or column holding the key")
	fs.StringVar(&o.opField, "op", "", "`field` or column holding the op (put, delete, drop)")
	fs.BoolVar(&o.skipBad, "skip-bad", false, "write malformed lines to the rejects file instead of aborting")
	fs.StringVar(&o.rejects, "rejects", "", "rejects `file` for --skip-bad (default FILE.rejects)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("import: give one FILE, or - for stdin")
	}
	path := fs.Arg(0)
	name := *stream
	if name == "" {
		if path == "-" {
			return errors.New("import: --stream is needed when reading stdin")
		}
		name = strings.ToLower(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	}
	var (
		r     io.Reader = e.stdin
		total int64     = -1
	)
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			total = fi.Size()
		}
		r = f
	}
	st, err := e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	bar := progress.New(e.stderr, total, "import "+name, progress.Bytes)
	o.progress = func(bytes, rows int64) { bar.Set(bytes) }
	stats, err := importStream(ctx, st, name, r, o)
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "imported %d rows (%s) into %s", stats.Rows, humanBytes(stats.Bytes), name)
	if stats.Rejected > 0 {
		fmt.Fprintf(e.stdout, "; %d rejected", stats.Rejected)
	}
	fmt.Fprintln(e.stdout)
	return nil
}
