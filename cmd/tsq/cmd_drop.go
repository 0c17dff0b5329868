package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	tsq "github.com/tsqdb/tsq"
)

func init() {
	register(&command{name: "drop", short: "remove streams and everything they hold", usage: "STREAM...",
		summary: "Remove each stream with its records, soft deletes, retention rule and import journal, durably. A stream made again under the name starts afresh. It cannot be undone.",
		run:     runDrop})
}

func runDrop(ctx context.Context, e *env, args []string) error {
	fs := e.flags("drop")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("drop: name the streams to remove (tsq drop STREAM ...)")
	}
	st, err := e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	return dropStreams(ctx, st, fs.Args(), e.stdout)
}

// dropStreams drops each named stream and says what it removed; it stops
// at the first failure.
func dropStreams(ctx context.Context, st *tsq.Store, names []string, out io.Writer) error {
	for _, name := range names {
		rows, err := st.Count(name)
		if err != nil {
			return fmt.Errorf("drop: %w", err)
		}
		ds, err := st.DropStream(ctx, name)
		if err != nil {
			return fmt.Errorf("drop: %w", err)
		}
		fmt.Fprintf(out, "dropped stream %s: %s, %s, %s\n", name, countOf(rows, "row"), countOf(ds.Segments, "segment"), humanBytes(ds.Bytes))
	}
	return nil
}
