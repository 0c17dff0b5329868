package ingest

import (
	"bytes"
	"io"
	"slices"
	"strings"
)

// RecordGuess names the fields of an input's first record that hold a
// record's own columns (GuessRecord); "" where none does.
type RecordGuess struct {
	Time            string
	Series, Key, Op string
	// Seq: the input has a "seq" field, the seq of a store it was
	// exported from; the importing store assigns seqs anew.
	Seq bool
}

// GuessRecord returns the fields of a CSV or JSON input that most likely
// hold each record's time (see GuessTimeField) and series: a field named
// "series"; with it, as tsq exports a result, "key" and "op" if present,
// op only if the first record's op is one an import knows (put, delete,
// drop and their synonyms). A stream exported as CSV or JSON lines
// (SELECT *) so imports back as it was. Arrow input is guessed by its
// schema as the parser opens it (arrowDefaults); here only its time.
func GuessRecord(head []byte, f Format) RecordGuess {
	if f == Guess {
		f = GuessContent(head)
	}
	if f == Arrow {
		return RecordGuess{Time: arrowTimeField(head)}
	}
	if f != CSV && f != JSONLines && f != JSONArray {
		return RecordGuess{}
	}
	p, err := NewParser(bytes.NewReader(head), Options{Format: f, BatchRows: 1, SkipBad: true, Rejects: io.Discard, Now: 1})
	if err != nil {
		return RecordGuess{}
	}
	var b Batch
	_ = p.Fill(&b) // the first record; a record cut at head's end is no matter
	var names []string
	if f == CSV {
		for _, h := range p.csv.header {
			names = append(names, string(h))
		}
	} else {
		for _, c := range b.Cols {
			// A field named time is the column time_ (record columns
			// keep their names); the mapping names the field.
			names = append(names, strings.TrimSuffix(c.Name, "_"))
		}
	}
	g := RecordGuess{Time: pickTimeName(names)}
	if !slices.Contains(names, "series") {
		return g
	}
	g.Series = "series"
	if slices.Contains(names, "key") {
		g.Key = "key"
	}
	if slices.Contains(names, "op") && b.Rows == 1 && knownOp(&b, "op_") {
		g.Op = "op"
	}
	g.Seq = slices.Contains(names, "seq")
	return g
}

// knownOp reports whether text column name of b's first row holds an op
// an import maps without being told (builtinOp).
func knownOp(b *Batch, name string) bool {
	for _, c := range b.Cols {
		if c.Name == name && c.Strs != nil && len(c.Valid) > 0 && c.Valid[0] {
			s := c.Strs[0]
			_, ok := builtinOp(string(b.Arena[s.Off : s.Off+s.Len]))
			return ok
		}
	}
	return false
}

// Apply maps the series, key and op g names onto m when m names none of
// them (a user's mapping of any wins whole), dropping an exported seq;
// it reports whether it did.
func (g RecordGuess) Apply(m *Mapping) bool {
	if g.Series == "" || m.Series != "" || m.Key != "" || m.Op != "" {
		return false
	}
	m.Series, m.Key, m.Op = g.Series, g.Key, g.Op
	if g.Seq && !slices.Contains(m.Keep, "seq") {
		m.Drop = append(slices.Clip(m.Drop), "seq")
	}
	return true
}
