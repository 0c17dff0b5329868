package main

import (
	"context"
	"fmt"
	"time"

	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/internal/progress"
)

func init() {
	register(&command{name: "backup", short: "copy the store, online and consistent, to a new directory that opens as a store", usage: "[--stream NAME]... DIR",
		summary: "Copy the store (or the --stream streams) to DIR, a new directory, while writers go on:\n" +
			"every stream as of one moment, with its soft deletes, retention rule, watermark and\n" +
			"import journal. Every block of the copy is checked against its checksum; DIR appears\n" +
			"only once the whole backup is on disk. Restore by opening DIR (--store DIR) or moving it\n" +
			"into place.",
		run: runBackup})
}

// streamList is a repeatable --stream flag.
type streamList []string

func (l *streamList) String() string { return fmt.Sprint([]string(*l)) }

func (l *streamList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func runBackup(ctx context.Context, e *env, args []string) error {
	fs := e.flags("backup")
	var streams streamList
	fs.Var(&streams, "stream", "copy only this stream (repeat for more; default: every stream)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("backup: give the directory to write the backup to (one new directory), e.g. tsq backup /mnt/backups/tsq-%s", time.Now().Format("2006-01-02"))
	}
	st, err := e.openStore(true) // read-only: runs beside a writing process
	if err != nil {
		return err
	}
	defer st.Close()
	return backupTo(ctx, e, st, fs.Arg(0), streams)
}

// backupTo runs a backup of st to dir with a progress bar and prints
// its summary; the shell's .backup runs it too.
func backupTo(ctx context.Context, e *env, st *tsq.Store, dir string, streams []string) error {
	bar := progress.New(e.stderr, -1, "backup", progress.Bytes)
	stats, err := st.Backup(ctx, dir, &tsq.BackupOptions{Streams: streams, Progress: func(done, total int64) {
		bar.SetTotal(total)
		bar.Set(done)
	}})
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s (%s, %s, %s) to %s in %v; every block checked\n",
		countOf(stats.Streams, "stream"), countOf(stats.Segments, "segment"), countOf(stats.Rows, "row"), humanBytes(stats.Bytes),
		stats.Dir, stats.Duration.Round(time.Millisecond))
	return nil
}
