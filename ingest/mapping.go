package ingest

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsqdb/tsq/chunk"
)

// Nested says what becomes of a nested JSON object.
type Nested uint8

const (
	// NestedFlatten (default) flattens {"a":{"b":1}} to a column "a.b".
	NestedFlatten Nested = iota
	// NestedJSON keeps the object as JSON text in a string column "a".
	NestedJSON
)

// Mapping says how input fields become a record. Field names are the
// flattened names ("a.b" for a nested JSON field, the header for CSV).
// The zero Mapping stores every field, gives every row the import's
// start time and the default series, no key and op put.
type Mapping struct {
	// Time is the field holding the record time. A number is read in
	// TimeUnit ("s", "ms", "us", "ns"; default "ms" for JSON and CSV,
	// "ns" for line protocol, "ms" for Prometheus text). A string is
	// parsed with TimeLayout (Go layout; by default RFC 3339, also with
	// a space for the 'T' or without a zone, which is UTC, or a date
	// alone; seconds may have a fraction or be left out; and the
	// layouts of PostgreSQL, strftime's %z, Go's time.Time.String,
	// ISO 8601 basic, RFC 1123 and 850, the common log format, ANSI C
	// and day.month.year, a zone abbreviation other than UTC and GMT
	// refused), or as a
	// number in TimeUnit when it is one. A time that
	// int64 nanoseconds cannot hold (before 1677-09-21, after
	// 2262-04-11) is a bad row.
	Time       string
	TimeUnit   string
	TimeLayout string
	// Series names the fields whose values, joined by "/", are the
	// series (comma-separated: "type,id"). SeriesDefault is used when it
	// is empty or the row has none of them.
	Series        string
	SeriesDefault string
	// Key names the fields whose values, joined by "/", are the key.
	Key string
	// Op is the field holding the op; OpValues maps its values to
	// "put", "delete", "drop" or "skip". Unmapped values are looked up
	// in the built-in table (put, create, insert, update, modify, upsert,
	// index → put; delete, remove → delete; drop → drop); others are an
	// error.
	Op       string
	OpValues map[string]string
	// Types forces a field's type: "int64", "float64", "string", "bool".
	Types map[string]string
	// Keep lists the only fields stored (all when empty); Drop lists
	// fields never stored.
	Keep []string
	Drop []string
	// KeepMapped also stores the time, series, key and op fields as
	// fields.
	KeepMapped bool
	Nested     Nested
}

// Set applies one "k=v" setting:
//
//	time=F  time.unit=ms  time.layout=2006-01-02 15:04:05
//	series=F[,G]  series.default=S  key=F[,G]  op=F  op.<value>=put|delete|drop|skip
//	type.<field>=int64|float64|string|bool  keep=F,G  drop=F,G  keep.mapped=true
//	nested=flatten|json
func (m *Mapping) Set(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("ingest: mapping setting %q: want key=value", kv)
	}
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	switch {
	case k == "time":
		m.Time = v
	case k == "time.unit":
		if _, err := unitNanos(v); err != nil {
			return err
		}
		m.TimeUnit = v
	case k == "time.layout":
		m.TimeLayout = v
	case k == "series":
		m.Series = v
	case k == "series.default":
		m.SeriesDefault = v
	case k == "key":
		m.Key = v
	case k == "op":
		m.Op = v
	case strings.HasPrefix(k, "op."):
		if _, err := opByName(v); err != nil {
			return fmt.Errorf("ingest: mapping setting %q: %w", kv, err)
		}
		if m.OpValues == nil {
			m.OpValues = map[string]string{}
		}
		m.OpValues[k[3:]] = v
	case strings.HasPrefix(k, "type."):
		if _, err := typeByName(v); err != nil {
			return fmt.Errorf("ingest: mapping setting %q: %w", kv, err)
		}
		if m.Types == nil {
			m.Types = map[string]string{}
		}
		m.Types[k[5:]] = v
	case k == "keep":
		m.Keep = splitList(v)
	case k == "drop":
		m.Drop = splitList(v)
	case k == "keep.mapped":
		m.KeepMapped = v == "true" || v == "1" || v == "yes"
	case k == "nested":
		switch v {
		case "flatten":
			m.Nested = NestedFlatten
		case "json":
			m.Nested = NestedJSON
		default:
			return fmt.Errorf("ingest: mapping setting %q: nested is flatten or json", kv)
		}
	default:
		return fmt.Errorf("ingest: mapping setting %q: unknown key %q", kv, k)
	}
	return nil
}

// ParseMapping reads a mapping file: one k=v setting per line (see
// Mapping.Set); blank lines and lines starting with # are ignored.
func ParseMapping(r io.Reader) (Mapping, error) {
	var m Mapping
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if err := m.Set(line); err != nil {
			return m, fmt.Errorf("mapping line %d: %w", n, err)
		}
	}
	return m, sc.Err()
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func unitNanos(u string) (int64, error) {
	switch u {
	case "s":
		return int64(time.Second), nil
	case "ms":
		return int64(time.Millisecond), nil
	case "us":
		return int64(time.Microsecond), nil
	case "ns":
		return 1, nil
	}
	return 0, fmt.Errorf("ingest: time unit %q: use s, ms, us or ns", u)
}

func opByName(v string) (Op, error) {
	switch v {
	case "put":
		return OpPut, nil
	case "delete":
		return OpDelete, nil
	case "drop":
		return OpDrop, nil
	case "skip":
		return OpSkip, nil
	}
	return 0, fmt.Errorf("op %q: use put, delete, drop or skip", v)
}

func builtinOp(v string) (Op, bool) {
	switch strings.ToLower(v) {
	case "put", "create", "insert", "update", "modify", "upsert", "index":
		return OpPut, true
	case "delete", "remove":
		return OpDelete, true
	case "drop":
		return OpDrop, true
	}
	return 0, false
}

func typeByName(v string) (chunk.Type, error) {
	switch v {
	case "int64", "int":
		return chunk.Int64, nil
	case "float64", "float":
		return chunk.Float64, nil
	case "string":
		return chunk.String, nil
	case "bool":
		return chunk.Bool, nil
	}
	return 0, fmt.Errorf("type %q: use int64, float64, string or bool", v)
}
