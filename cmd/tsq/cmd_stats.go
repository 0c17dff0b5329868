package main

import (
	"context"
	"strings"
)

func init() {
	register(&command{name: "stats", short: "rows, segments, blocks, bytes, time range and a sparkline per stream", usage: "[STREAM...]",
		summary: "Per stream (each named, else all): rows, segments, blocks and the rows a block holds on average, bytes on disk, time range and a sparkline of rows over time.",
		run:     runStats})
}

func runStats(ctx context.Context, e *env, args []string) error {
	fs := e.flags("stats")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	st, err := e.openStore(true)
	if err != nil {
		return err
	}
	defer st.Close()
	only := fs.Args()
	for i, n := range only {
		only[i] = strings.ToLower(n) // as queries read stream names
	}
	return writeStats(ctx, e.stdout, st, only...)
}
