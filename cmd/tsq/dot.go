package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/internal/progress"
	"github.com/tsqdb/tsq/internal/render"
	"github.com/tsqdb/tsq/internal/textdist"
)

// errQuit ends the shell (.quit, .exit).
var errQuit = errors.New("quit")

// dotCmd is a shell command starting with a dot.
type dotCmd struct {
	name, args, help string
	// run gets the words after the name and the raw text after it.
	run func(s *session, ctx context.Context, words []string, rest string) error
}

var dotCmds []dotCmd

func init() {
	dotCmds = []dotCmd{
		{".help", "", "show this help", (*session).dotHelp},
		{".streams", "", "list the streams with their row counts (also .tables)", (*session).dotStreams},
		{".schema", "[STREAM...]", "show the columns and types of the streams (all by default)", (*session).dotSchema},
		{".series", "STREAM [N]", "list up to N (20) series of a stream", (*session).dotSeries},
		{".stats", "[STREAM...]", "rows, segments, blocks, bytes and a sparkline of rows over time per stream", (*session).dotStats},
		{".mode", "table|csv|json|line|jsonl|logfmt|markdown", "set the output format", (*session).dotMode},
		{".maxrows", "N", "rows a table shows before truncating (-1: all)", (*session).dotMaxRows},
		{".timer", "on|off", "print each statement's run time", (*session).dotTimer},
		{".tz", "[ZONE]", "show timestamps on a time zone's clock (an IANA name such as Europe/Berlin; UTC by default); without ZONE, say which", (*session).dotTZ},
		{".output", "[FILE]", "send results to FILE, or back to the screen", (*session).dotOutput},
		{".export", "FILE [STATEMENT]", "export the last (or given) statement's result; format from the extension: .arrow .arrows .parquet .csv .jsonl", (*session).dotExport},
		{".import", "FILE [STREAM]", "import a file or a directory's files (any format tsq import reads) into STREAM, by default the one named after it; quote a name with spaces", (*session).dotImport},
		{".read", "FILE", "run the statements and dot commands of a file", (*session).dotRead},
		{".backup", "DIR [STREAM...]", "copy the store (or the streams) to DIR, a new directory, consistent and checked; writers go on", (*session).dotBackup},
		{".drop", "STREAM...", "remove streams and everything they hold (it cannot be undone)", (*session).dotDrop},
		{".plot", "[STATEMENT]", "draw the last (or given) statement's result as a line chart", (*session).dotPlot},
		{".bail", "on|off", "stop a script at the first error (on by default)", (*session).dotBail},
		{".quit", "", "leave the shell (also .exit, Ctrl-D)", func(*session, context.Context, []string, string) error { return errQuit }},
		{".exit", "", "leave the shell", func(*session, context.Context, []string, string) error { return errQuit }},
	}
}

// dot runs one dot command line.
func (s *session) dot(ctx context.Context, line string) error {
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ";"))
	name, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	if a := dotAliases[name]; a != "" {
		name = a
	}
	for _, c := range dotCmds {
		if c.name == name {
			return c.run(s, ctx, strings.Fields(rest), rest)
		}
	}
	if near := nearestDot(name); near != "" {
		return fmt.Errorf("unknown command %s: did you mean %s? (.help lists them)", name, near)
	}
	return fmt.Errorf("unknown command %s (try .help)", name)
}

// dotAliases are other shells' names of the dot commands.
var dotAliases = map[string]string{".tables": ".streams", ".q": ".quit", ".h": ".help"}

// nearestDot returns the dot command within two edits of name, or "".
func nearestDot(name string) string {
	best, bestD := "", 3
	for _, c := range dotCmds {
		if d := textdist.Edit(name, c.name); d < bestD {
			best, bestD = c.name, d
		}
	}
	return best
}

func (s *session) dotHelp(context.Context, []string, string) error {
	var rows [][2]string
	for _, c := range dotCmds {
		rows = append(rows, [2]string{strings.TrimSpace(c.name + " " + c.args), c.help})
	}
	rows = append(rows, [][2]string{
		{"STATEMENT;", "run a statement, which may span lines and ends with a semicolon"},
		{"  SELECT ... FROM s [WHERE ...] [GROUP BY ...] ...", "a query (docs/QUERY.md); EXPLAIN [ANALYZE] SELECT shows its plan [and run]"},
		{"  ... FROM s AS a [LEFT | RIGHT | FULL | ASOF] JOIN t AS b USING (series, time)", "join two streams or subqueries (ON a.x = b.y also)"},
		{"  SELECT ... {UNION | INTERSECT | EXCEPT} [ALL] SELECT ...", "set operations"},
		{"  COPY (SELECT ...) TO 'file' [(FORMAT parquet)]", "export a result, as .export does (COPY s TO 'file': a stream)"},
		{"  COPY s FROM 'file' [(FORMAT csv)]", "import a file into stream s, as .import does"},
		{"  SELECT ... FROM 'file.csv'", "query a file as it is (read_csv, read_parquet, ...)"},
		{"  DELETE FROM s WHERE ...", "soft-delete the matching rows"},
		{"  INSERT INTO s (series, time, f) VALUES (...)", "append records (INSERT INTO s SELECT ...: a result's rows)"},
		{"  CREATE TABLE s AS SELECT ...", "a new stream of a result (AS FROM 'file.csv': of a file)"},
		{"  DROP TABLE s, ...", "remove streams, as .drop does"},
		{"  SET TimeZone = 'Europe/Berlin'", "show timestamps on that zone's clock, as .tz does (RESET TimeZone: UTC)"},
		{"  SHOW STREAMS, DESCRIBE s, SHOW SERIES FROM s", "the streams, a stream's columns, its series"},
		{"  SUMMARIZE s", "each column's count, NULLs, min, max, mean and deviation"},
		{"  PIVOT s ON x USING avg(v) GROUP BY time(1h)", "a column for each value of x"},
		{"  UNPIVOT s ON a, b", "a row for each of the columns a, b"},
		{"  SHOW FUNCTIONS", "every function, with its form and what it gives"},
	}...)
	var b strings.Builder
	writeHelp(&b, rows, helpWidth+2)
	_, err := io.WriteString(s.e.stdout, b.String())
	return err
}

// streams returns the store's streams; none, it says so.
func (s *session) streams() ([]string, error) {
	names, err := s.st.Streams()
	if err == nil && len(names) == 0 {
		fmt.Fprintln(s.out, "no streams")
	}
	return names, err
}

func (s *session) dotStreams(context.Context, []string, string) error {
	names, err := s.streams()
	if err != nil || len(names) == 0 {
		return err
	}
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	for _, n := range names {
		c, err := s.st.Count(n)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%s\n", n, countOf(c, "row"))
	}
	return tw.Flush()
}

func (s *session) dotSchema(_ context.Context, w []string, _ string) error {
	if len(w) == 0 { // every stream's, each under its name
		names, err := s.streams()
		if err != nil || len(names) == 0 {
			return err
		}
		w = names
	}
	for i, name := range w {
		if len(w) > 1 {
			if i > 0 {
				fmt.Fprintln(s.out)
			}
			fmt.Fprintf(s.out, "%s:\n", name)
		}
		if err := s.schemaOf(name); err != nil {
			return err
		}
	}
	return nil
}

// schemaOf prints the columns of stream name and their types.
func (s *session) schemaOf(name string) error {
	sc, err := streamSchema(s.st, name)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	for _, f := range sc.Fields() {
		if f.Nullable {
			fmt.Fprintf(tw, "%s\t%s\tnullable\n", f.Name, render.TypeName(f.Type))
		} else {
			fmt.Fprintf(tw, "%s\t%s\n", f.Name, render.TypeName(f.Type))
		}
	}
	return tw.Flush()
}

func (s *session) dotSeries(_ context.Context, w []string, _ string) error {
	if len(w) < 1 || len(w) > 2 {
		return errors.New(".series needs a stream name and optionally a count")
	}
	n := 20
	if len(w) == 2 {
		v, err := strconv.Atoi(w[1])
		if err != nil || v <= 0 {
			return fmt.Errorf(".series: bad count %q", w[1])
		}
		n = v
	}
	names, err := streamSeries(s.st, w[0], n)
	if err != nil {
		return err
	}
	for _, x := range names {
		fmt.Fprintln(s.out, x)
	}
	return nil
}

func (s *session) dotStats(ctx context.Context, w []string, _ string) error {
	only := make([]string, len(w))
	for i, n := range w {
		only[i] = strings.ToLower(n)
	}
	return writeStats(ctx, s.out, s.st, only...)
}

func (s *session) dotMode(_ context.Context, w []string, _ string) error {
	if len(w) != 1 {
		return fmt.Errorf(".mode needs one of table, csv, json, line (now %s)", s.mode)
	}
	m, err := render.ParseMode(w[0])
	if err != nil {
		return err
	}
	s.mode = m
	return nil
}

func (s *session) dotMaxRows(_ context.Context, w []string, _ string) error {
	if len(w) != 1 {
		return errors.New(".maxrows needs a number")
	}
	n, err := strconv.Atoi(w[0])
	if err != nil || n == 0 {
		return fmt.Errorf(".maxrows: bad number %q", w[0])
	}
	s.rows = n
	return nil
}

// onOff reads on|off for command c.
func onOff(c string, w []string) (bool, error) {
	if len(w) == 1 {
		switch strings.ToLower(w[0]) {
		case "on", "yes", "true", "1":
			return true, nil
		case "off", "no", "false", "0":
			return false, nil
		}
	}
	return false, fmt.Errorf("%s needs on or off", c)
}

func (s *session) dotTimer(_ context.Context, w []string, _ string) (err error) {
	s.timer, err = onOff(".timer", w)
	return err
}

func (s *session) dotTZ(_ context.Context, w []string, _ string) error {
	if len(w) == 0 {
		name := "UTC"
		if s.zone != nil {
			name = s.zone.String()
		}
		fmt.Fprintln(s.e.stdout, name)
		return nil
	}
	loc, err := loadZone(w[0])
	if err != nil {
		return fmt.Errorf(".tz: %w", err)
	}
	s.zone = loc
	return nil
}

// loadZone loads an IANA time zone; "local" takes the machine's.
func loadZone(name string) (*time.Location, error) {
	if strings.EqualFold(name, "local") {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "" {
		return nil, fmt.Errorf("unknown time zone %q (want an IANA name such as Europe/Berlin, America/New_York, UTC or local)", name)
	}
	return loc, nil
}

func (s *session) dotBail(_ context.Context, w []string, _ string) (err error) {
	s.bail, err = onOff(".bail", w)
	return err
}

func (s *session) dotOutput(_ context.Context, w []string, _ string) error {
	if err := s.close(); err != nil {
		return err
	}
	s.out = s.e.stdout
	if len(w) == 0 || w[0] == "stdout" {
		return nil
	}
	f, err := os.Create(s.e.expandHome(w[0]))
	if err != nil {
		return fmt.Errorf(".output: %w", err)
	}
	s.out, s.outFile = f, f
	return nil
}

// statementArg returns the statement given after a dot command's first
// argument, or the last one run.
func (s *session) statementArg(c, rest string) (string, error) {
	if st := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), ";")); st != "" {
		return st, nil
	}
	if s.last == "" {
		return "", fmt.Errorf("%s: no statement run yet; give one", c)
	}
	return s.last, nil
}

func (s *session) dotExport(ctx context.Context, w []string, rest string) error {
	if len(w) < 1 {
		return errors.New(".export needs a file name")
	}
	path := s.e.expandHome(w[0])
	f, err := exportFormatOf(path)
	if err != nil {
		return err
	}
	stmt, err := s.statementArg(".export", strings.TrimSpace(strings.TrimPrefix(rest, w[0])))
	if err != nil {
		return err
	}
	return s.export(ctx, stmt, path, f)
}

// export writes the result of stmt to path in format f and says so.
func (s *session) export(ctx context.Context, stmt, path string, f exportFormat) error {
	rr, err := runQuery(ctx, s.e, s.st, stmt)
	if err != nil {
		return err
	}
	defer rr.Release()
	bar := progress.New(s.e.stderr, -1, "export", progress.Rows)
	rows, n, err := exportFile(ctx, path, f, rr, func(rows, _ int64) { bar.Set(rows) })
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(s.e.stdout, "exported %s (%s) to %s\n", countOf(rows, "row"), humanBytes(n), path)
	return nil
}

func (s *session) dotPlot(ctx context.Context, _ []string, rest string) error {
	stmt, err := s.statementArg(".plot", rest)
	if err != nil {
		return err
	}
	return s.plot(ctx, stmt)
}

// expandHome replaces a leading "~/" of a path typed in the shell with
// $HOME, as a command shell would (no command shell sees the path).
func (e *env) expandHome(path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home := e.getenv("HOME"); home != "" {
			return filepath.Join(home, rest)
		}
	}
	return path
}

// dotImport imports a file (or a directory's files) as tsq import does
// with no flags: the format and the time field guessed, the stream named
// after the file unless given. The shell's store is read-only: the
// import opens its own.
func (s *session) dotImport(ctx context.Context, _ []string, rest string) error {
	w, err := quotedWords(rest)
	if err != nil {
		return fmt.Errorf(".import: %w", err)
	}
	if len(w) == 0 || len(w) > 2 {
		return errors.New(".import needs a file name, and may take a stream name after it: .import data.csv [STREAM]")
	}
	path, name := w[0], ""
	if len(w) == 2 {
		name = strings.ToLower(w[1])
	}
	return s.importInto(ctx, ".import", path, name, "")
}

// copyFrom runs COPY stream FROM 'file' [(FORMAT f)]: .import of the file
// into the stream.
func (s *session) copyFrom(ctx context.Context, stream, path, format string) error {
	return s.importInto(ctx, "COPY", path, stream, format)
}

// importInto imports the file or the directory's files at path into
// stream name (by default the one named after it), in format (""
// guessed); what names the command in errors.
func (s *session) importInto(ctx context.Context, what, path, name, format string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	files := []string{path}
	if fi.IsDir() { // its files, as tsq import takes them
		if files, err = dataFiles(path); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	switch {
	case name != "":
	case fi.IsDir():
		name = dirStreamName(path)
	default:
		name = streamNameOf(path)
	}
	if name == "" {
		return fmt.Errorf("%s: no stream name can be made from %q: give one, .import %s STREAM", what, filepath.Base(path), path)
	}
	o := importOptions{guessTime: true, noted: new(notes)}
	if format != "" {
		f, err := ingest.ParseFormat(format)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		o.format = f
	}
	st, err := s.e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range files {
		if err := importFile(ctx, s.e, st, f, name, "", o); err != nil {
			return err
		}
	}
	return nil
}

// quotedWords splits s at spaces; a word may be quoted with ' or " to
// hold spaces (a file name).
func quotedWords(s string) ([]string, error) {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if q := s[0]; q == '\'' || q == '"' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return nil, fmt.Errorf("unterminated %c", q)
			}
			words, s = append(words, s[1:end+1]), s[end+2:]
			continue
		}
		word, more, _ := strings.Cut(s, " ")
		words, s = append(words, word), more
	}
	return words, nil
}

func (s *session) dotDrop(ctx context.Context, w []string, _ string) error {
	if len(w) == 0 {
		return errors.New(".drop needs the names of the streams to remove")
	}
	st, err := s.e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	return dropStreams(ctx, st, w, s.e.stdout)
}

func (s *session) dotBackup(ctx context.Context, _ []string, rest string) error {
	words, err := quotedWords(rest)
	if err != nil || len(words) == 0 {
		return errors.New(".backup needs the directory to write the backup to (a new one), then optionally stream names")
	}
	return backupTo(ctx, s.e, s.st, s.e.expandHome(words[0]), words[1:])
}

// maxReadDepth bounds .read inside .read (a file that reads itself).
const maxReadDepth = 16

// errReported: a failure already reported (by a .read script).
var errReported = errors.New("reported")

func (s *session) dotRead(ctx context.Context, w []string, rest string) error {
	words, err := quotedWords(rest)
	if err != nil || len(words) != 1 {
		return errors.New(".read needs one file name")
	}
	if s.depth >= maxReadDepth {
		return fmt.Errorf(".read: more than %d files read inside each other", maxReadDepth)
	}
	f, err := os.Open(s.e.expandHome(words[0]))
	if err != nil {
		return fmt.Errorf(".read: %w", err)
	}
	defer f.Close()
	s.depth++
	defer func() { s.depth-- }()
	if err := s.script(ctx, f); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			return errReported
		}
		return fmt.Errorf(".read %s: %w", words[0], err)
	}
	return nil
}
