package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/tsqdb/tsq/internal/progress"
)

func init() {
	register(&command{name: "export", short: "write a result as Arrow, Parquet (also partitioned), CSV or JSON lines", usage: "-c STATEMENT [--format F] FILE|- | --partitioned -c STATEMENT DIR",
		summary: "Export a statement's result to FILE; the format comes from the extension:\n" +
			".arrow (Arrow IPC file), .arrows (Arrow IPC stream), .parquet, .csv, .jsonl, or from --format, which\n" +
			"- (standard output, for a pipe) needs. With --partitioned,\n" +
			"write Parquet files DIR/stream=S/date=YYYY-MM-DD/part-N.parquet that Spark, Trino and DuckDB read as one dataset.",
		run: runExport})
}

func runExport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("export")
	stmt := fs.String("c", "", "the `statement` whose result to export (e.g. 'SELECT * FROM cpu')")
	partitioned := fs.Bool("partitioned", false, "write a Parquet dataset partitioned by stream and UTC date into DIR")
	stream := fs.String("stream", "", "the stream `name` of the partitions (default: the stream after FROM)")
	format := fs.String("format", "", "output `format`: arrow, arrows, parquet, csv, jsonl (default: from FILE's extension)")
	err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 || *stmt == "" {
		return errors.New("export: give -c STATEMENT and one FILE")
	}
	path := fs.Arg(0)
	if *partitioned && *stream == "" {
		m := mentioned(*stmt)
		if len(m) != 1 {
			return errors.New("export: --partitioned needs --stream when the statement does not name one stream")
		}
		*stream = m[0]
	}
	var f exportFormat
	switch {
	case *partitioned && (*format != "" && *format != "parquet" || path == "-"):
		return errors.New("export: --partitioned writes Parquet files into a directory")
	case *partitioned:
	case *format != "":
		if f, err = parseExportFormat(*format); err != nil {
			return err
		}
	case path == "-":
		return errors.New("export: writing to standard output (-) needs --format arrow, arrows, parquet, csv or jsonl")
	default:
		if f, err = exportFormatOf(path); err != nil {
			return err
		}
	}
	if path == "-" && binaryFormat(f) && isTerminal(e.stdout) {
		return fmt.Errorf("export: not writing %v to a terminal: redirect or pipe standard output", f)
	}
	st, err := e.openStore(true)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	rr, err := runQuery(ctx, e, st, *stmt)
	if err != nil {
		return err
	}
	defer rr.Release()
	if path == "-" {
		_, err := exportTo(ctx, e.stdout, f, rr)
		return err // no summary: standard output is the data
	}
	bar := progress.New(e.stderr, -1, "export", progress.Rows)
	progress := func(rows, _ int64) { bar.Set(rows) }
	var rows, n int64
	if *partitioned {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		rows, n, err = exportPartitioned(ctx, path, *stream, rr, progress)
	} else {
		rows, n, err = exportFile(ctx, path, f, rr, progress)
	}
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "exported %s (%s) to %s\n", countOf(rows, "row"), humanBytes(n), path)
	return nil
}
