package main

import (
	"context"
	"fmt"

	"github.com/tsqdb/tsq/internal/progress"
)

func init() {
	register(&command{name: "compact", short: "one compaction pass: physically remove deleted and superseded rows", usage: "[STREAM...]",
		summary: "Run one compaction pass over the given streams (default: all), removing what is deleted\n" +
			"or superseded.",
		run: runCompact})
}

func runCompact(ctx context.Context, e *env, args []string) error {
	fs := e.flags("compact")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	st, err := e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	names := fs.Args()
	if len(names) == 0 {
		if names, err = st.Streams(); err != nil {
			return err
		}
	}
	bar := progress.New(e.stderr, int64(len(names)), "compact", progress.Rows)
	defer bar.Done()
	for i, n := range names {
		msg, err := compactStream(ctx, st, n)
		if err != nil {
			return err
		}
		bar.Set(int64(i + 1))
		fmt.Fprintf(e.stdout, "%s: %s\n", n, msg)
	}
	return nil
}
