package query

import (
	"fmt"
	"path/filepath"
	"strings"
)

// A file as a source, as DuckDB reads one: FROM read_csv('data.csv'),
// read_json, read_parquet, read_arrow or read_file (any format, told by
// its bytes), or a path in single quotes that names a file ('data/x.csv':
// a '/' or a data file's extension; else it is a stream's name). The
// caller reads the file (Options.OpenFile): tsq's shell and tsq query
// import it into a temporary store for the statement. The source's name
// is FileStream's.

// fileReaders maps read_* to the format it names ("" any).
var fileReaders = map[string]string{
	"read_csv": "csv", "read_csv_auto": "csv", "read_json": "", "read_json_auto": "", "read_ndjson": "jsonl",
	"read_parquet": "parquet", "read_arrow": "arrow", "read_file": "",
}

// fileExts are the extensions that make a quoted name a file's.
var fileExts = []string{".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".parquet", ".arrow", ".arrows", ".ipc", ".lp", ".prom"}

const filePrefix = "\x00file:"

// FileStream is the source name of the file at path, read in format ("":
// told by its bytes).
func FileStream(format, path string) string { return filePrefix + format + ":" + path }

// FileOf returns the format and path of a FileStream name; ok is false
// for a stream's name.
func FileOf(name string) (format, path string, ok bool) {
	rest, ok := strings.CutPrefix(name, filePrefix)
	if !ok {
		return "", "", false
	}
	format, path, _ = strings.Cut(rest, ":")
	return format, path, true
}

// fileSource parses read_x('path') at t (its name) or 'path' into st;
// ok is false, nothing consumed, when t starts neither.
func (p *parser) fileSource(st *Statement, t token) bool {
	if format, ok := fileReaders[strings.ToLower(t.text)]; ok && t.kind == tIdent && isPunct(p.tok(p.i+1), "(") {
		p.advance()
		p.advance()
		s := p.advance()
		if s.kind != tString {
			p.fail(s.pos, "%s wants the file's path in quotes, found %s", strings.ToLower(t.text), s.describe())
		}
		p.expectPunct(")")
		st.Stream, st.streamPos = FileStream(format, s.text), s.pos
		return true
	}
	if t.kind == tString && p.src[t.pos] == '\'' && looksLikeFile(t.text) {
		p.advance()
		st.Stream, st.streamPos = FileStream("", t.text), t.pos
		return true
	}
	return false
}

// looksLikeFile reports whether a quoted name is a file's path: it holds
// a '/' or ends in a data file's extension (compressed too).
func looksLikeFile(s string) bool {
	if strings.Contains(s, "/") {
		return true
	}
	base := strings.ToLower(s)
	for _, z := range []string{".gz", ".zst", ".bz2", ".xz", ".lz4", ".sz"} {
		base = strings.TrimSuffix(base, z)
	}
	for _, e := range fileExts {
		if strings.HasSuffix(base, e) {
			return true
		}
	}
	return false
}

// fileAlias is the name a file side of a join goes by without AS: its
// base name up to the first dot, letters, digits and '_' kept.
func fileAlias(path string) string {
	base, _, _ := strings.Cut(filepath.Base(path), ".")
	b := []byte(base)
	for i, c := range b {
		if !isLetter(c) && !isDigit(c) {
			b[i] = '_'
		}
	}
	if len(b) == 0 || isDigit(b[0]) {
		return "f" + string(b)
	}
	return string(b)
}

// sourceName names a source in messages: stream cpu (quoted: "cpu"),
// file 'x.csv'.
func sourceName(name string, quoted bool) string {
	if _, path, ok := FileOf(name); ok {
		return "file '" + path + "'"
	}
	if quoted {
		return fmt.Sprintf("stream %q", name)
	}
	return "stream " + name
}

// withFiles is open reading FileStream names with o.OpenFile.
func withFiles(open Opener, o *Options) Opener {
	return func(name string) (Source, error) {
		format, path, ok := FileOf(name)
		if !ok {
			return open(name)
		}
		if o == nil || o.OpenFile == nil {
			return nil, fmt.Errorf("%s: reading a file in FROM takes tsq's shell or tsq query (here, import it and name its stream)", path)
		}
		return o.OpenFile(path, format)
	}
}
