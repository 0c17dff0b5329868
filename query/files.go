package query

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// A file as a source, as DuckDB reads one: FROM read_csv('data.csv'),
// read_json, read_parquet, read_arrow or read_file (any format, told by
// its bytes), or a path in single quotes that names a file ('data/x.csv':
// a '/' or a data file's extension; else it is a stream's name). A
// read_*'s named arguments say how its rows become records, as tsq
// import's flags do (read_json('x.jsonl', time='ts', key='id',
// op='action')). The caller reads the file (Options.OpenFile): tsq's
// shell and tsq query import it into a temporary store. The source's
// name is FileStream's.

// fileReaders maps read_* to the format it names ("" any).
var fileReaders = map[string]string{
	"read_csv": "csv", "read_csv_auto": "csv", "read_json": "", "read_json_auto": "", "read_ndjson": "jsonl",
	"read_parquet": "parquet", "read_arrow": "arrow", "read_file": "",
}

// fileArgs maps a read_*'s named arguments to the import mapping
// settings they give (ingest.Mapping.Set's keys); map='k=v' gives any.
var fileArgs = map[string]string{
	"time": "time", "time_unit": "time.unit", "time_layout": "time.layout", "series": "series", "series_default": "series.default",
	"key": "key", "op": "op", "keep": "keep", "drop": "drop", "nested": "nested", "keep_mapped": "keep.mapped", "map": "",
}

// fileExts are the extensions that make a quoted name a file's.
var fileExts = []string{".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".parquet", ".arrow", ".arrows", ".ipc", ".lp", ".prom"}

const filePrefix = "\x00file:"

// File is a file a statement reads.
type File struct {
	Path   string
	Format string // "": told by its bytes
	// Mapping are the import mapping settings ("time=ts", "key=id")
	// the reader's named arguments give, in order.
	Mapping []string
}

// FileStream is the source name of file f.
func FileStream(f File) string {
	name := filePrefix + f.Format + ":" + f.Path
	for _, m := range f.Mapping {
		name += "\x00" + m
	}
	return name
}

// FileOf returns the file of a FileStream name; ok is false for a
// stream's name.
func FileOf(name string) (f File, ok bool) {
	rest, ok := strings.CutPrefix(name, filePrefix)
	if !ok {
		return File{}, false
	}
	parts := strings.Split(rest, "\x00")
	f.Format, f.Path, _ = strings.Cut(parts[0], ":")
	f.Mapping = parts[1:]
	return f, true
}

// fileSource parses read_x('path'[, name = value ...]) at t (its name)
// or 'path' into st; ok is false, nothing consumed, when t starts
// neither.
func (p *parser) fileSource(st *Statement, t token) bool {
	if format, ok := fileReaders[strings.ToLower(t.text)]; ok && t.kind == tIdent && isPunct(p.tok(p.i+1), "(") {
		p.advance()
		p.advance()
		s := p.advance()
		if s.kind != tString {
			p.fail(s.pos, "%s wants the file's path in quotes, found %s", strings.ToLower(t.text), s.describe())
		}
		f := File{Path: s.text, Format: format}
		for p.acceptPunct(",") {
			f.Mapping = append(f.Mapping, p.fileArg(strings.ToLower(t.text)))
		}
		p.expectPunct(")")
		st.Stream, st.streamPos = FileStream(f), s.pos
		return true
	}
	if t.kind == tString && p.src[t.pos] == '\'' && looksLikeFile(t.text) {
		p.advance()
		st.Stream, st.streamPos = FileStream(File{Path: t.text}), t.pos
		return true
	}
	return false
}

// fileArg parses one named argument of reader fn, name = value, and
// returns the mapping setting it gives.
func (p *parser) fileArg(fn string) string {
	n := p.advance()
	key, ok := fileArgs[strings.ToLower(n.text)]
	if n.kind != tIdent || !ok {
		names := slices.Sorted(maps.Keys(fileArgs))
		p.fail(n.pos, "%s takes the path, then named arguments (%s), found %s", fn, strings.Join(names, ", "), n.describe())
	}
	if t := p.advance(); !isPunct(t, "=") {
		p.fail(t.pos, "expected = after %s, found %s", n.text, t.describe())
	}
	v := p.advance()
	switch {
	case v.kind == tString, v.kind == tInt, v.kind == tIdent && (isKw(v, "true") || isKw(v, "false")):
	default:
		p.fail(v.pos, "%s wants a value in quotes, found %s", n.text, v.describe())
	}
	if key == "" { // map='k=v'
		if !strings.Contains(v.text, "=") {
			p.fail(v.pos, "map wants a mapping setting k=v (as tsq import --map takes), found %q", v.text)
		}
		return v.text
	}
	return key + "=" + v.text
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
	if f, ok := FileOf(name); ok {
		return "file '" + f.Path + "'"
	}
	if quoted {
		return fmt.Sprintf("stream %q", name)
	}
	return "stream " + name
}

// withFiles is open reading FileStream names with o.OpenFile.
func withFiles(open Opener, o *Options) Opener {
	return func(name string) (Source, error) {
		f, ok := FileOf(name)
		if !ok {
			return open(name)
		}
		if o == nil || o.OpenFile == nil {
			return nil, fmt.Errorf("%s: reading a file in FROM takes tsq's shell or tsq query (here, import it and name its stream)", f.Path)
		}
		return o.OpenFile(f)
	}
}
