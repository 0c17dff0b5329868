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
	register(&command{name: "export", usage: "-c STATEMENT FILE",
		summary: "Export a statement's result to FILE; the format comes from the extension:\n" +
			".arrow (Arrow IPC file), .arrows (Arrow IPC stream), .parquet, .csv, .jsonl.",
		run: runExport})
}

func runExport(ctx context.Context, e *env, args []string) error {
	fs := e.flags("export")
	stmt := fs.String("c", "", "the `statement` whose result to export (e.g. 'SELECT * FROM cpu')")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *stmt == "" {
		return errors.New("export: give -c STATEMENT and one FILE")
	}
	path := fs.Arg(0)
	if err := checkExportPath(path); err != nil {
		return err
	}
	st, err := e.openStore(true)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	rr, err := runQuery(ctx, st, *stmt)
	if err != nil {
		return err
	}
	defer rr.Release()
	bar := progress.New(e.stderr, -1, "export", progress.Rows)
	rows, n, err := exportFile(ctx, path, rr, func(rows, _ int64) { bar.Set(rows) })
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "exported %d rows (%s) to %s\n", rows, humanBytes(n), path)
	return nil
}
