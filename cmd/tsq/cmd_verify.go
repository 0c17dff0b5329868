package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tsqdb/tsq/internal/check"
	"github.com/tsqdb/tsq/internal/progress"
)

func init() {
	register(&command{name: "verify", short: "check every checksum, index, bloom, key span, state file and journal; name file and offset", usage: "",
		summary: "Check every segment header, block checksum (with a full decode), index, bloom filter and\n" +
			"footer of the store, its state files (soft deletes, retention rules, watermarks) and import\n" +
			"journals (record checksums; each committed import's seqs held by the segments it names),\n" +
			"without changing it. Prints FILE: SECTION at offset N: PROBLEM for each\n" +
			"problem; the exit status is 1 when there is any.",
		run: runVerify})
}

func runVerify(ctx context.Context, e *env, args []string) error {
	if err := e.parse(e.flags("verify"), args); err != nil {
		return err
	}
	dir, err := e.storeDir()
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("verify: no store at %s", dir)
	}
	bar := progress.New(e.stderr, -1, "verify", progress.Bytes)
	rep, err := check.Store(ctx, dir, &check.Options{Progress: func(done, total int64) {
		bar.SetTotal(total)
		bar.Set(done)
	}})
	bar.Done()
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(e.stdout, p.String())
	}
	fmt.Fprintf(e.stdout, "%s, %s, %s, %s, %s, %s, %s checked: ",
		countOf(rep.Streams, "stream"), countOf(rep.Segments, "segment"), countOf(rep.Blocks, "block"), countOf(rep.Rows, "row"),
		humanBytes(rep.Bytes), countOf(rep.StateFiles, "state file"), countOf(rep.Journals, "journal"))
	if rep.OK() {
		fmt.Fprintln(e.stdout, "no problems")
		return nil
	}
	fmt.Fprintln(e.stdout, countOf(len(rep.Problems), "problem"))
	return exitError{1}
}
