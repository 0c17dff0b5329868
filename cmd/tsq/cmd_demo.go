package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	tsq "github.com/tsqdb/tsq"
	"golang.org/x/term"
)

func init() {
	register(&command{name: "demo", short: "build a store from embedded real data, tour it, open the shell", usage: "[--no-shell]",
		summary: "Build a store from small real data embedded in tsq (NAB CPU metrics, OpenStreetMap edits) in a\n" +
			"temporary directory (or --store), tour it, then open the shell on it.",
		run: runDemo})
}

// tourStep is one stop of the demo tour: a statement or dot command.
type tourStep struct{ title, input string }

// tour is what the demo runs, in order.
var tour = []tourStep{
	{"What is in the store", ".stats"},
	{"Each column of the edits at a glance: values, NULLs, range, mean (SUMMARIZE)", `SUMMARIZE osm;`},
	{"A raw query: the first samples of one CPU series",
		`SELECT time, series, value FROM cpu WHERE series = 'nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d' LIMIT 5;`},
	{"A time-bucket aggregate: mean and peak CPU per series per day",
		`SELECT time, series, avg(value), max(value) FROM cpu WHERE time >= '2014-02-20T00:00:00Z' AND time < '2014-02-23T00:00:00Z' GROUP BY time(1d), series;`},
	{"Grouped by computed time: mean CPU per weekday, and the samples above 50% (FILTER)",
		`SELECT strftime(time, '%u %a') AS weekday, round(avg(value), 2) AS mean, count(*) FILTER (WHERE value > 50) AS busy FROM cpu GROUP BY weekday ORDER BY weekday;`},
	{"Instants in expressions: the four days of widest CPU swing (date_trunc, strftime)",
		`SELECT date_trunc('day', time) AS day, strftime(min(time), '%A') AS weekday, series, round(max(value) - min(value), 1) AS swing FROM cpu GROUP BY day, series ORDER BY swing DESC LIMIT 4;`},
	{"Peaks and jumps: when each series peaked (arg_max), and its largest step between samples (lag)",
		`SELECT series, max(value) AS peak, arg_max(time, value) AS peak_at, round(max(abs(value - prev)), 2) AS biggest_jump, arg_max(time, abs(value - prev)) AS jump_at FROM (SELECT time, series, value, lag(value) AS prev FROM cpu) GROUP BY series;`},
	{"Window functions: each series' two busiest hours (OVER, QUALIFY), the change from the hour before (lag) and the mean of the three hours to it (a RANGE frame)",
		`SELECT series, time, round(avg(value), 2) AS mean, round(avg(value) - lag(avg(value)), 2) AS change, round(avg(avg(value)) OVER (PARTITION BY series ORDER BY time RANGE 2h PRECEDING), 2) AS mean_3h, row_number() OVER (PARTITION BY series ORDER BY avg(value) DESC) AS r FROM cpu GROUP BY time(1h), series QUALIFY r <= 2 ORDER BY series, r;`},
	{"The latest sample of each series (DISTINCT ON) against the mean of all (a subquery's value)",
		`SELECT DISTINCT ON (series) series, time AS latest, value, round(value - (SELECT avg(value) FROM cpu), 2) AS vs_mean FROM cpu ORDER BY series, time DESC;`},
	{"A join: each sample beside its series' mean, the spikes over twice the mean counted",
		`SELECT series, round(max(m.mean), 2) AS mean, count(*) FILTER (WHERE c.value > 2 * m.mean) AS over_twice, round(max(c.value) / max(m.mean), 1) AS peak_x FROM cpu AS c JOIN (SELECT series, avg(value) AS mean FROM cpu GROUP BY series) AS m USING (series) GROUP BY series;`},
	{"Per series and in all (ROLLUP), the samples over twice their own series' mean (a correlated subquery)",
		`SELECT series, count(*) AS samples, count(*) FILTER (WHERE value > 2 * (SELECT avg(value) FROM cpu WHERE series = c.series)) AS over_twice, grouping(series) AS total FROM cpu AS c GROUP BY ROLLUP (series) ORDER BY total, series;`},
	{"PIVOT: a column per series, named by a lookup table (VALUES), a row per day",
		`PIVOT (SELECT c.time AS time, n.name AS name, c.value AS value FROM cpu AS c JOIN (VALUES ('nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d', 'web'), ('nab/realAWSCloudwatch/ec2_cpu_utilization_53ea38', 'api'), ('nab/realAWSCloudwatch/ec2_cpu_utilization_5f5533', 'batch'), ('nab/realAWSCloudwatch/rds_cpu_utilization_cc0c53', 'db')) AS n(series, name) USING (series)) ON name USING round(avg(value), 2) GROUP BY time(1d) ORDER BY time LIMIT 5;`},
	{"WITH and UNION ALL: hourly means computed once, the peak of each series and of all",
		`WITH hourly AS (SELECT time, series, avg(value) AS v FROM cpu GROUP BY time(1h), series) SELECT series, round(max(v), 2) AS peak FROM hourly GROUP BY series UNION ALL SELECT 'all four', round(max(v), 2) FROM hourly ORDER BY peak DESC;`},
	{"JSON in a field: the kinds of road the edits touched, from their tags (->>, json_group_array)",
		`SELECT tags->>'highway' AS highway, count(*) AS edits, json_group_array(tags->>'name') FILTER (WHERE tags->>'name' IS NOT NULL) AS names FROM osm WHERE tags->>'highway' IS NOT NULL GROUP BY highway ORDER BY edits DESC, highway LIMIT 5;`},
	{"Raw versus folded: every put and delete, then the current state of each element",
		`SELECT count(*) FROM osm;`},
	{"", `SELECT count(*) FROM fold(osm);`},
	{"A plot: hourly mean CPU of the four series", `.plot SELECT time, series, avg(value) FROM cpu GROUP BY time(1h), series;`},
	{"An export to Arrow IPC, ready for DuckDB, polars or pyarrow", `.export DEMO_DIR/cpu.arrow SELECT * FROM cpu;`},
	{"A backup: a consistent, checked copy that opens as a store, taken while writers go on", `.backup DEMO_DIR/backup`},
}

// nextSteps are printed when there is no terminal to open the shell on.
var nextSteps = []string{
	"tsq --store DEMO_DIR                 # the shell on the demo store (.help inside)",
	"tsq --store DEMO_DIR query -c 'SELECT series, count(*) FROM cpu GROUP BY series;'",
	"tsq --store DEMO_DIR query --plot -c 'SELECT time, avg(value) FROM cpu GROUP BY time(6h);'",
	"tsq --store DEMO_DIR verify",
}

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := e.flags("demo")
	noShell := fs.Bool("no-shell", false, "print the tour and stop, even on a terminal")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	dir, err := demoDir(e)
	if err != nil {
		return err
	}
	start := time.Now()
	st, err := tsq.Open(dir, &tsq.Options{Sync: tsq.SyncNever})
	if err != nil {
		return fmt.Errorf("demo: open %s: %w", dir, err)
	}
	rows, err := loadDemo(ctx, st)
	if err = errors.Join(err, st.Close()); err != nil {
		return fmt.Errorf("demo: load: %w", err)
	}
	fmt.Fprintf(e.stdout, "Built a demo store in %s in %s: stream %s (%d samples of 4 NAB CPU series, MIT)\n"+
		"and stream %s (%d OpenStreetMap edits: puts and deletes keyed by element, © OpenStreetMap contributors, ODbL).\n",
		dir, time.Since(start).Round(time.Millisecond), demoMetrics, rows[demoMetrics], demoEvents, rows[demoEvents])

	ro, err := tsq.Open(dir, &tsq.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("demo: reopen %s: %w", dir, err)
	}
	defer ro.Close()
	s := newSession(e, ro)
	defer s.close()
	s.rows = 12
	for _, step := range tour {
		in := strings.ReplaceAll(step.input, "DEMO_DIR", dir)
		if step.title != "" {
			fmt.Fprintf(e.stdout, "\n── %s\n", step.title)
		}
		fmt.Fprintf(e.stdout, "tsq> %s\n", in)
		if err := s.input(ctx, in); err != nil {
			s.report(err, in, 0)
		}
	}
	e.store = dir
	if f, ok := e.stdin.(*os.File); ok && !*noShell && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintln(e.stdout, "\nYour turn: the shell is open on the demo store.")
		return s.interactive(ctx)
	}
	fmt.Fprintln(e.stdout, "\nNext, try:")
	for _, n := range nextSteps {
		fmt.Fprintf(e.stdout, "  %s\n", strings.ReplaceAll(n, "DEMO_DIR", dir))
	}
	fmt.Fprintln(e.stdout, "(`go install ./cmd/tsq` puts tsq on your PATH; `go run ./cmd/tsq` works in its place.)")
	if s.errors > 0 {
		return fmt.Errorf("demo: %d steps of the tour failed", s.errors)
	}
	return nil
}

// demoDir returns --store, which must be new or hold no streams, or a new
// temporary directory.
func demoDir(e *env) (string, error) {
	if !e.storeSet {
		return os.MkdirTemp("", "tsq-demo-")
	}
	dir := e.store
	names, err := os.ReadDir(filepath.Join(dir, "streams"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("demo: %w", err)
	}
	if len(names) > 0 {
		return "", fmt.Errorf("demo: %s already holds streams; give a new or empty --store", dir)
	}
	return dir, nil
}
