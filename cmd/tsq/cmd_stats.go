package main

import "context"

func init() {
	register(&command{name: "stats", short: "rows, segments, blocks, bytes, time range and a sparkline per stream", usage: "",
		summary: "Per stream: rows, segments, blocks and the rows a block holds on average, bytes on disk, time range and a sparkline of rows over time.",
		run:     runStats})
}

func runStats(ctx context.Context, e *env, args []string) error {
	if err := e.parse(e.flags("stats"), args); err != nil {
		return err
	}
	st, err := e.openStore(true)
	if err != nil {
		return err
	}
	defer st.Close()
	return writeStats(ctx, e.stdout, st)
}
