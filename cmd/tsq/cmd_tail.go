package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/internal/render"
	"github.com/tsqdb/tsq/query"
)

func init() {
	register(&command{name: "tail", short: "print a stream's last records, and with -f the new ones as they come", usage: "STREAM [-n N] [-f] [--where COND] [--mode M]",
		summary: "Print the last N records of a stream's raw view (deletes and drops included), one line each; with -f, go on printing the records appended after them until interrupted. A reader: it runs beside the process that writes.",
		run:     runTail})
}

func runTail(ctx context.Context, e *env, args []string) error {
	fs := e.flags("tail")
	n := fs.Int("n", 10, "the `records` printed first (0: none, only new ones with -f)")
	follow := fs.Bool("f", false, "follow: print records as they are appended, until Ctrl-C")
	where := fs.String("where", "", "a WHERE `condition` the records must match, e.g. \"series = 'cpu'\"")
	mode := fs.String("mode", "logfmt", "output `mode`: logfmt, jsonl, csv, json, line, table or markdown")
	every := fs.Duration("interval", time.Second, "with -f, how often to look for new records")
	tz := fs.String("tz", "", "show timestamps on this time `zone`'s clock")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("tail: name one stream: tsq tail STREAM")
	}
	m, err := render.ParseMode(*mode)
	if err != nil {
		return fmt.Errorf("tail: %w", err)
	}
	var zone *time.Location
	if *tz != "" {
		if zone, err = loadZone(*tz); err != nil {
			return fmt.Errorf("tail: %w", err)
		}
	}
	if *n < 0 || *every <= 0 {
		return errors.New("tail: -n must be 0 or more and --interval positive")
	}
	st, err := e.openStore(true)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	t := &tailer{e: e, st: st, from: "`" + fs.Arg(0) + "`", o: render.Options{Mode: m, MaxRows: -1, Zone: zone}}
	if *where != "" {
		t.cond = " AND (" + *where + ")"
	}
	// The first seq to print: that of the N-th last match, or past the
	// newest record when following only new ones.
	last, err := t.scalar(ctx, "SELECT max(seq) FROM "+t.from)
	if err != nil {
		return err
	}
	if *n > 0 {
		// The N-th last match; 0 when there are fewer: all of them.
		first, err := t.scalar(ctx, fmt.Sprintf("SELECT seq FROM %s WHERE seq > 0%s ORDER BY seq DESC LIMIT 1 OFFSET %d", t.from, t.cond, *n-1))
		if err != nil {
			return err
		}
		printed, err := t.print(ctx, max(first, 1)-1)
		if err != nil {
			return err
		}
		last = max(last, printed)
	}
	for *follow {
		select {
		case <-ctx.Done():
			return nil // Ctrl-C ends a follow
		case <-time.After(*every):
		}
		next, err := t.print(ctx, last)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		last = max(last, next)
	}
	return nil
}

// tailer runs the queries of tail.
type tailer struct {
	e    *env
	st   *tsq.Store
	from string // the stream, quoted
	cond string // " AND (condition)", or ""
	o    render.Options
}

// print prints the matching records after seq and returns the last
// seq it printed (after if none).
func (t *tailer) print(ctx context.Context, after uint64) (uint64, error) {
	rr, err := t.query(ctx, fmt.Sprintf("SELECT * FROM %s WHERE seq > %d%s", t.from, after, t.cond))
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	last := after
	seen := &lastSeq{RecordReader: rr, last: &last}
	if _, err := render.Write(t.e.stdout, seen, t.o); err != nil {
		return 0, err
	}
	return last, nil
}

// query runs a query of tail's; an error in it is said of the stream or
// of --where, not of the query tail made.
func (t *tailer) query(ctx context.Context, q string) (array.RecordReader, error) {
	rr, err := runQuery(ctx, t.e, t.st, q)
	var qe *query.Error
	if !errors.As(err, &qe) {
		return rr, err
	}
	if at := strings.Index(q, t.cond); t.cond != "" && qe.Pos >= at {
		// The condition starts after " AND (".
		return nil, fmt.Errorf("tail: --where col %d: %s", max(qe.Pos-at-len(" AND ("), 0)+1, qe.Msg)
	}
	return nil, fmt.Errorf("tail: %s", qe.Msg)
}

// scalar runs a query of one uint64 value (0 when NULL).
func (t *tailer) scalar(ctx context.Context, q string) (uint64, error) {
	rr, err := t.query(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	var v uint64
	for rr.Next() {
		if c, ok := rr.RecordBatch().Column(0).(*array.Uint64); ok && c.Len() > 0 && c.IsValid(0) {
			v = c.Value(0)
		}
	}
	return v, rr.Err()
}

// lastSeq passes batches through, noting the largest seq (column 0).
type lastSeq struct {
	array.RecordReader
	last *uint64
}

func (l *lastSeq) Next() bool {
	if !l.RecordReader.Next() {
		return false
	}
	if c, ok := l.RecordBatch().Column(0).(*array.Uint64); ok {
		for i := range c.Len() {
			*l.last = max(*l.last, c.Value(i))
		}
	}
	return true
}
