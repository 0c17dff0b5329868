package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if !bytes.Equal([]byte(got), want) {
		t.Fatalf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// goldenScript exercises a raw query, NULLs from the folded view and a
// time-bucket aggregate; a multi-line statement and a comment too.
const goldenScript = `SELECT time, series, value FROM cpu
  WHERE series = 'nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d' LIMIT 3;
-- the current state of three ways: no lat, and a name only on some
SELECT key, op, version, lat, name FROM fold(osm) WHERE series = 'way' LIMIT 3;
SELECT time, count(value), min(value), max(value) FROM cpu
  WHERE time >= '2014-02-20T00:00:00Z' AND time < '2014-02-20T03:00:00Z' GROUP BY time(1h);
`

// TestScriptModes pipes the same statements through the shell in every
// .mode and compares the output with testdata/script_<mode>.golden.
func TestScriptModes(t *testing.T) {
	dir := demoStore(t)
	for _, mode := range []string{"table", "csv", "json", "line"} {
		t.Run(mode, func(t *testing.T) {
			r := runTSQ(t, ".mode "+mode+"\n"+goldenScript, "--store", dir)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			golden(t, "script_"+mode, r.stdout)
		})
	}
}

// TestScriptErrors: the first error stops the script with exit 1 and a
// message naming the line and column with a caret; --continue (or .bail
// off) runs the rest and still exits 1.
func TestScriptErrors(t *testing.T) {
	dir := demoStore(t)
	script := ".mode csv\nSELECT count(*) FROM cpu;\nSELECT time,\n  valu FROM cpu;\nSELECT count(*) FROM fold(osm);\n"
	r := runTSQ(t, script, "--store", dir)
	if r.code != 1 {
		t.Fatalf("exit %d", r.code)
	}
	if r.stdout != "count(*)\n16128\n" {
		t.Fatalf("stdout %q: the statement after the error ran", r.stdout)
	}
	golden(t, "script_error", r.stderr)

	r = runTSQ(t, script, "--store", dir, "shell", "--continue")
	if r.code != 1 || r.stdout != "count(*)\n16128\ncount(*)\n485\n" {
		t.Fatalf("--continue: exit %d stdout %q", r.code, r.stdout)
	}
	r = runTSQ(t, ".bail off\n"+script, "--store", dir)
	if r.code != 1 || !strings.HasSuffix(r.stdout, "485\n") {
		t.Fatalf(".bail off: exit %d stdout %q", r.code, r.stdout)
	}
	r = runTSQ(t, ".mode html\n", "--store", dir)
	if r.code != 1 || r.stderr != "Error: line 1: unknown mode \"html\" (want table, csv, json, line, jsonl, logfmt or markdown)\n" {
		t.Fatalf("bad dot command: exit %d stderr %q", r.code, r.stderr)
	}
	r = runTSQ(t, "SELECT count(*) FROM nope;", "--store", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "Error: line 1 col 22: ") || !strings.Contains(r.stderr, "\n                     ^") {
		t.Fatalf("unknown stream: exit %d stderr %q", r.code, r.stderr)
	}
}

// TestQueryCommand: -c, a file, stdin, --mode and --plot.
func TestQueryCommand(t *testing.T) {
	dir := demoStore(t)
	r := runTSQ(t, "", "--store", dir, "query", "--mode", "csv", "-c", "SELECT count(*) FROM cpu; SELECT count(*) FROM osm")
	if r.code != 0 || r.stdout != "count(*)\n16128\ncount(*)\n985\n" {
		t.Fatalf("-c: %+v", r)
	}
	f := filepath.Join(t.TempDir(), "q.sql")
	os.WriteFile(f, []byte("SELECT count(*) FROM fold(osm);\n"), 0o644)
	if r := runTSQ(t, "", "--store", dir, "query", "--mode", "json", f); r.code != 0 || r.stdout != "[\n{\"count(*)\":485}\n]\n" {
		t.Fatalf("file: %+v", r)
	}
	if r := runTSQ(t, "SELECT count(*) FROM cpu;", "--store", dir, "query", "--mode=line"); r.code != 0 || r.stdout != "count(*) = 16128\n" {
		t.Fatalf("stdin: %+v", r)
	}
	r = runTSQ(t, "", "--store", dir, "query", "--plot", "-c",
		"SELECT time, series, avg(value) FROM cpu GROUP BY time(6h), series")
	if r.code != 0 || !strings.Contains(r.stdout, "━━ nab/realAWSCloudwatch/rds_cpu_utilization_cc0c53") ||
		!strings.Contains(r.stdout, "┤") || !strings.ContainsAny(r.stdout, "⠁⠂⠄⡀⠈⠐⠠⢀⣀⠉") {
		t.Fatalf("--plot: %+v", r)
	}
	r = runTSQ(t, "", "--store", dir, "query", "--plot", "-c", // a span, drawn in seconds
		"SELECT time, max(time) - min(time) AS span FROM cpu GROUP BY time(6h)")
	if r.code != 0 || !strings.Contains(r.stdout, "━━ span (s)") || !strings.Contains(r.stdout, "21420 ┤") {
		t.Fatalf("--plot of a span: %+v", r)
	}
	if r := runTSQ(t, "", "--store", dir, "query", "-c", "SELECT max(time) - min(time) AS span FROM cpu", "--mode", "csv"); r.code != 0 || r.stdout != "span\n14 days 00:03:00\n" {
		t.Fatalf("a span: %+v", r)
	}
	r = runTSQ(t, "", "--store", dir, "query", "--plot", "-c", "SELECT count(*) FROM cpu")
	if r.code != 1 || !strings.Contains(r.stderr, "plot: the result has no time column") {
		t.Fatalf("--plot without time: %+v", r)
	}
}

// TestDotCommands runs the informational dot commands and .output in a
// script.
func TestDotCommands(t *testing.T) {
	dir := demoStore(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	script := ".streams\n.schema osm\n.series cpu 2\n.timer on\n.output " + out + "\n.mode csv\nSELECT count(*) FROM cpu;\n.output\n.help\n.stats\n.quit\nSELECT 1;\n"
	r := runTSQ(t, script, "--store", dir)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{
		"cpu  16128 rows\nosm  985 rows\n",
		"seq        uint64\ntime       timestamp\nseries     string\nkey        string\nop         string\naction     string   nullable\n",
		"lat        float64  nullable\n",
		"nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d\nnab/realAWSCloudwatch/ec2_cpu_utilization_53ea38\n",
		"Run Time: ",
		".export FILE [STATEMENT]",
		"rows over time",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil || string(b) != "count(*)\n16128\n" {
		t.Fatalf(".output file: %v %q", err, b)
	}
	// "~/" is the home directory, as in a command shell.
	r = runTSQ(t, ".export ~/two.csv SELECT time FROM cpu LIMIT 2;\n", "--store", dir)
	_, path, ok := strings.Cut(strings.TrimSpace(r.stdout), ") to ")
	if r.code != 0 || !ok || strings.Contains(path, "~") || !filepath.IsAbs(path) {
		t.Fatalf(".export ~/: %+v", r)
	}
	if b, err := os.ReadFile(path); err != nil || strings.Count(string(b), "\n") != 3 {
		t.Fatalf(".export ~/ wrote %q: %v", b, err)
	}
}

// TestDotAliases: .tables is .streams; .schema without a name shows every
// stream's under its name; a misspelt command names the nearest.
func TestDotAliases(t *testing.T) {
	dir := demoStore(t)
	r := runTSQ(t, ".tables\n.schema\n", "--store", dir)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{"cpu  16128 rows\nosm  985 rows\n", "cpu:\nseq     uint64\n", "value   float64  nullable\n\nosm:\nseq        uint64\n", "name       string   nullable\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runTSQ(t, ".shema cpu\n", "--store", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "unknown command .shema: did you mean .schema?") {
		t.Fatalf("misspelt: exit %d stderr %q", r.code, r.stderr)
	}
	r = runTSQ(t, ".zzzzzz\n", "--store", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "unknown command .zzzzzz (try .help)") {
		t.Fatalf("unknown: exit %d stderr %q", r.code, r.stderr)
	}
}

// TestHelpFits: .help lists every dot command; a line is wider than 80
// columns only when a form alone is, and no description is cut.
func TestHelpFits(t *testing.T) {
	var b strings.Builder
	writeHelp(&b, [][2]string{{".x", strings.Repeat("word ", 30)}, {strings.Repeat("f", 40), "short"}}, helpWidth+2)
	if got := strings.Count(b.String(), "word"); got != 30 {
		t.Fatalf("%d words of 30 kept:\n%s", got, b.String())
	}
	r := runTSQ(t, ".help\n", "--store", demoStore(t))
	top := runTSQ(t, "", "help")
	if r.code != 0 || top.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stderr, top.stderr)
	}
	for _, out := range []string{b.String(), r.stdout, top.stdout} {
		for _, line := range strings.Split(out, "\n") {
			// past 80 only a form alone: no padding before a description, no description line
			if len(line) > 80 && (strings.Contains(strings.TrimSpace(line), "  ") || strings.HasPrefix(line, strings.Repeat(" ", helpWidth))) {
				t.Errorf("line of %d columns: %q", len(line), line)
			}
		}
	}
	for _, c := range dotCmds {
		if !strings.Contains(r.stdout, "\n"+c.name+" ") && !strings.HasPrefix(r.stdout, c.name+" ") {
			t.Errorf(".help lacks %s", c.name)
		}
	}
}

// TestDotImport: .import in the shell imports a file into the stream
// named after it, or the one given, guessing format and time as tsq
// import does; the shell's queries see the rows at once; a missing file
// or no file is an error that says so.
func TestDotImport(t *testing.T) {
	dir := demoStore(t)
	files := t.TempDir()
	csv := writeFile(t, files, "Sensor Data.csv", "timestamp,temp\n2024-01-02T03:04:05Z,20.5\n2024-01-02T03:05:05Z,21\n")
	script := ".import '" + csv + "'\n.import \"" + csv + "\" Copy\n.mode csv\nSELECT count(*), max(time) FROM sensor_data;\nSELECT sum(temp) FROM copy;\n"
	r := runTSQ(t, script, "--store", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "imported 2 rows") || !strings.Contains(r.stdout, "into sensor_data as seqs 1..2") ||
		!strings.Contains(r.stdout, "into copy as seqs 1..2") || !strings.HasSuffix(r.stdout, "count(*),max(time)\n2,2024-01-02T03:05:05Z\nsum(temp)\n41.5\n") {
		t.Fatalf("%+v", r)
	}
	r = runTSQ(t, ".import '"+files+"' fromdir\n.mode csv\nSELECT count(*) FROM fromdir;\n", "--store", dir)
	if r.code != 0 || !strings.HasSuffix(r.stdout, "count(*)\n2\n") {
		t.Fatalf("a directory: %+v", r)
	}
	for _, c := range []struct{ script, err string }{
		{".import\n", ".import needs a file name"},
		{".import 'x.csv\n", "unterminated '"},
		{".import " + filepath.Join(files, "none.csv") + "\n", "no such file"},
		{".import " + t.TempDir() + "\n", "holds no file import reads by its name"},
	} {
		if r := runTSQ(t, c.script, "--store", dir); r.code == 0 || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%q: %+v", c.script, r)
		}
	}
}

// TestDeleteStatementShell: a DELETE in a script or tsq query soft-deletes
// the matching rows (the read-only session then sees them gone) and
// prints how many; it is never run again by .export or .plot, and
// export and --plot refuse it.
func TestDeleteStatementShell(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	var body strings.Builder
	body.WriteString("ts,v\n")
	for i := range 10 {
		fmt.Fprintf(&body, "2024-01-02T03:%02d:00Z,%d\n", i, i)
	}
	csv := writeFile(t, t.TempDir(), "d.csv", body.String())
	if r := runTSQ(t, "", "--store", dir, "import", csv); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	out := filepath.Join(t.TempDir(), "x.csv")
	r := runTSQ(t, ".mode csv\nDELETE FROM d WHERE v >= 6;\nSELECT count(*) FROM d;\n.export "+out+"\n", "--store", dir)
	if r.code != 0 || r.stdout != "deleted\n4\ncount(*)\n6\nexported 1 row (11 B) to "+out+"\n" {
		t.Fatalf("script: %+v", r)
	}
	r = runTSQ(t, "", "--store", dir, "query", "--mode", "csv", "-c", "DELETE FROM d WHERE v < 2; SELECT sum(v) FROM d")
	if r.code != 0 || r.stdout != "deleted\n2\nsum(v)\n14\n" {
		t.Fatalf("tsq query: %+v", r)
	}
	// tsq stats counts the deleted rows still on disk until a pass frees them.
	statsLine := func() []string {
		t.Helper()
		r := runTSQ(t, "", "--store", dir, "stats", "d")
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if r.code != 0 || len(lines) != 2 || !strings.Contains(lines[0], "rows  deleted") {
			t.Fatalf("stats: %+v", r)
		}
		return strings.Fields(lines[1])
	}
	if f := statsLine(); f[1] != "4" || f[2] != "6" {
		t.Fatalf("stats after deletes: %v, want 4 rows and 6 deleted", f)
	}
	if r := runTSQ(t, "", "--store", dir, "compact", "d"); r.code != 0 {
		t.Fatalf("compact: %+v", r)
	}
	if f := statsLine(); f[1] != "4" || f[2] != "0" {
		t.Fatalf("stats after a pass: %v, want 4 rows and 0 deleted", f)
	}
	for _, args := range [][]string{
		{"export", "-c", "DELETE FROM d", out},
		{"query", "--plot", "-c", "DELETE FROM d"},
	} {
		if r := runTSQ(t, "", append([]string{"--store", dir}, args...)...); r.code == 0 || !strings.Contains(r.stderr, "DELETE changes the store") {
			t.Errorf("%v: %+v", args, r)
		}
	}
	r = runTSQ(t, "DELETE FROM d;\n.plot\n", "--store", dir)
	if r.code == 0 || !strings.Contains(r.stderr, ".plot: no statement run yet") {
		t.Errorf(".plot after a DELETE: %+v", r)
	}
	if r := runTSQ(t, "", "--store", dir, "query", "--mode", "csv", "-c", "SELECT count(*) FROM d"); r.stdout != "count(*)\n0\n" {
		t.Fatalf("after deleting every row: %+v", r)
	}
}

// TestInsertStatementShell: an INSERT in a script appends its rows (the
// read-only session then reads them) and prints their seqs; export
// refuses one.
func TestInsertStatementShell(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	script := ".mode csv\nINSERT INTO notes (time, series, text) VALUES ('2024-01-02T03:04:05Z', 'deploy', 'v1'), ('2024-01-03T00:00:00Z', 'deploy', 'v2');\n" +
		"SELECT time, text FROM notes;\n"
	r := runTSQ(t, script, "--store", dir) // the store does not exist yet: the shell creates it
	if r.code != 0 || r.stdout != "inserted,first_seq,last_seq\n2,1,2\ntime,text\n2024-01-02T03:04:05Z,v1\n2024-01-03T00:00:00Z,v2\n" ||
		!strings.Contains(r.stderr, "created an empty store at "+dir) {
		t.Fatalf("script: %+v", r)
	}
	r = runTSQ(t, "", "--store", dir, "export", "-c", "INSERT INTO notes (series) VALUES ('x')", filepath.Join(t.TempDir(), "x.csv"))
	if r.code == 0 || !strings.Contains(r.stderr, "INSERT changes the store") {
		t.Fatalf("export of an INSERT: %+v", r)
	}
}

// TestCreateDropShell: in a script, CREATE TABLE ... AS makes a stream
// the read-only session then reads, a second one is an error with a
// caret, and DROP TABLE removes streams, saying what each held; export
// refuses both.
func TestCreateDropShell(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store") // a copy: the demo store is shared
	if err := os.CopyFS(dir, os.DirFS(demoStore(t))); err != nil {
		t.Fatal(err)
	}
	script := ".mode csv\nCREATE TABLE daily AS SELECT time, series, max(value) AS peak FROM cpu GROUP BY time(1d), series;\n" +
		"SELECT count(*) FROM daily;\nSHOW TABLES;\nDROP TABLE daily, osm;\nSHOW TABLES;\n"
	r := runTSQ(t, script, "--store", dir)
	lines := strings.Split(r.stdout, "\n")
	if r.code != 0 || len(lines) < 14 || lines[0] != "inserted,first_seq,last_seq" || lines[1] != "60,1,60" || lines[3] != "60" ||
		!strings.Contains(r.stdout, "\ndaily,60\n") || !strings.Contains(r.stdout, "stream,rows,segments,bytes\ndaily,60,1,") ||
		!strings.Contains(r.stdout, "\nosm,985,") || strings.Contains(r.stdout[strings.LastIndex(r.stdout, "stream,rows\n"):], "osm") {
		t.Fatalf("script: %+v", r)
	}
	r = runTSQ(t, "CREATE TABLE cpu AS SELECT * FROM cpu;\n", "--store", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "Error: line 1 col 14: stream \"cpu\" already exists") || !strings.Contains(r.stderr, "\n             ^") {
		t.Fatalf("CREATE TABLE over a stream: %+v", r)
	}
	for _, text := range []string{"CREATE TABLE x AS SELECT * FROM cpu", "DROP TABLE cpu"} {
		r = runTSQ(t, "", "--store", dir, "export", "-c", text, filepath.Join(t.TempDir(), "x.csv"))
		if r.code == 0 || !strings.Contains(r.stderr, "changes the store") {
			t.Fatalf("export of %s: %+v", text, r)
		}
	}
	if r = runTSQ(t, "", "--store", dir, "query", "--mode", "csv", "-c", "SHOW TABLES"); !strings.Contains(r.stdout, "\ncpu,16128\n") || strings.Contains(r.stdout, "osm") || strings.Contains(r.stdout, "daily") {
		t.Fatalf("after the script: %+v", r)
	}
}

// TestDotRead: .read runs a file's statements and dot commands in the
// session (its settings stay), nested files too; an error in one stops
// the script and is reported once, with its line; a file reading itself
// is stopped.
func TestDotRead(t *testing.T) {
	dir := demoStore(t)
	files := t.TempDir()
	inner := writeFile(t, files, "inner.sql", "SELECT count(*) FROM osm;\n")
	outer := writeFile(t, files, "outer.sql", ".mode csv\nSELECT count(*) FROM cpu;\n.read '"+inner+"'\n")
	r := runTSQ(t, ".read "+outer+"\nSELECT 1 + 1 AS two FROM cpu LIMIT 1;\n", "--store", dir)
	if r.code != 0 || r.stdout != "count(*)\n16128\ncount(*)\n985\ntwo\n2\n" {
		t.Fatalf("%+v", r)
	}
	bad := writeFile(t, files, "bad.sql", "SELECT count(*) FROM cpu;\n\nSELECT nosuch FROM cpu;\nSELECT 1 FROM cpu;\n")
	r = runTSQ(t, ".mode csv\n.read "+bad+"\nSELECT 2 FROM cpu LIMIT 1;\n", "--store", dir)
	if r.code != 1 || r.stdout != "count(*)\n16128\n" || strings.Count(r.stderr, "Error:") != 1 || !strings.Contains(r.stderr, "Error: line 3 col 8: unknown column \"nosuch\"") {
		t.Fatalf("an error in a read file: %+v", r)
	}
	self := filepath.Join(files, "self.sql")
	writeFile(t, files, "self.sql", ".read "+self+"\n")
	if r := runTSQ(t, ".read "+self+"\n", "--store", dir); r.code != 1 || !strings.Contains(r.stderr, "more than 16 files read inside each other") {
		t.Fatalf("a file reading itself: %+v", r)
	}
	if r := runTSQ(t, ".read "+filepath.Join(files, "none.sql")+"\n", "--store", dir); r.code != 1 || !strings.Contains(r.stderr, "no such file") {
		t.Fatalf("a missing file: %+v", r)
	}
}

// TestTimeZoneDisplay: .tz and --tz show timestamps on a zone's clock,
// with its offset (the instants unchanged); a zone not known is refused.
func TestTimeZoneDisplay(t *testing.T) {
	dir := demoStore(t)
	const q = "SELECT time FROM cpu LIMIT 1;\n"
	r := runTSQ(t, ".mode csv\n.tz\n"+q+".tz Asia/Kolkata\n.tz\n"+q+".tz UTC\n"+q, "--store", dir)
	want := "UTC\ntime\n2014-02-14T14:30:00Z\nAsia/Kolkata\ntime\n2014-02-14T20:00:00+05:30\ntime\n2014-02-14T14:30:00Z\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf(".tz: %+v", r)
	}
	if r := runTSQ(t, "", "--store", dir, "query", "--mode", "csv", "--tz", "America/New_York", "-c", q); r.code != 0 || r.stdout != "time\n2014-02-14T09:30:00-05:00\n" {
		t.Fatalf("query --tz: %+v", r)
	}
	// A plot's time axis is on the same clock.
	const plot = ".plot SELECT time, avg(value) FROM cpu GROUP BY time(6h);\n"
	if r := runTSQ(t, plot+".tz Asia/Tokyo\n"+plot, "--store", dir); r.code != 0 ||
		!strings.Contains(r.stdout, "2014-02-14 12h") || !strings.Contains(r.stdout, "(UTC)") ||
		!strings.Contains(r.stdout, "2014-02-14 21h") || !strings.Contains(r.stdout, "(Asia/Tokyo)") {
		t.Fatalf(".plot after .tz: %+v", r)
	}
	if r := runTSQ(t, "", "--store", dir, "tail", "osm", "-n", "1", "--tz", "Europe/Berlin"); r.code != 0 || !strings.Contains(r.stdout, "time=2013-04-09T02:41:09+02:00 ") {
		t.Fatalf("tail --tz: %+v", r)
	}
	for _, args := range [][]string{{"query", "--tz", "Mars/Olympus", "-c", q}, {"tail", "osm", "--tz", "nowhere"}} {
		if r := runTSQ(t, ".tz Mars/Olympus\n", append([]string{"--store", dir}, args...)...); r.code == 0 || !strings.Contains(r.stderr, "unknown time zone") {
			t.Errorf("%v: %+v", args, r)
		}
	}
	if r := runTSQ(t, ".tz Mars/Olympus\n", "--store", dir); r.code == 0 || !strings.Contains(r.stderr, `.tz: unknown time zone "Mars/Olympus"`) {
		t.Errorf(".tz of an unknown zone: %+v", r)
	}
	// SET TimeZone and RESET TimeZone, as DuckDB and PostgreSQL write
	// them, are .tz; other settings are refused, naming the line.
	r = runTSQ(t, ".mode csv\nSET TimeZone = 'Asia/Kolkata';\n"+q+"set session timezone to Europe/Berlin;\n.tz\nRESET TimeZone;\n"+q, "--store", dir)
	if want := "time\n2014-02-14T20:00:00+05:30\nEurope/Berlin\ntime\n2014-02-14T14:30:00Z\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("SET TimeZone: %+v", r)
	}
	for script, msg := range map[string]string{
		"SELECT 1;\nSET threads = 4;\n":    "Error: line 2: SET threads: the shell takes SET TimeZone only",
		"SET TimeZone = 'Mars/Olympus';\n": `SET TimeZone: unknown time zone "Mars/Olympus"`,
		"SET TimeZone;\n":                  "SET wants a name and a value",
	} {
		if r := runTSQ(t, script, "--store", dir); r.code == 0 || !strings.Contains(r.stderr, msg) {
			t.Errorf("%q: %+v, want %q", script, r, msg)
		}
	}
}
