package ingest

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestOtherTextTimes: the text times databases, servers and languages write
// read as the instant they name without a layout; a zone abbreviation
// Go would take for UTC, and a day/month order no layout settles, are
// refused with what to do; a whole CSV keeps to its layout.
func TestOtherTextTimes(t *testing.T) {
	want := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		in   string
		frac time.Duration
	}{
		{"2024-01-02T03:04:05Z", 0},
		{"2024-01-02 03:04:05", 0},
		{"2024-01-02 03:04:05.123456+00", 123456 * time.Microsecond}, // PostgreSQL
		{"2024-01-02 08:34:05+05:30", 0},
		{"2024-01-01 22:04:05-05", 0},
		{"2024-01-02T03:04:05.5+0000", 500 * time.Millisecond}, // strftime %z
		{"2024-01-02 04:04:05 +0100", 0},
		{"2024-01-02 03:04:05.123 +0000 UTC", 123 * time.Millisecond}, // Go
		{"2024-01-01 22:04:05 -0500 EST", 0},
		{"2024/01/02 03:04:05", 0},
		{"20240102T030405Z", 0}, // ISO 8601 basic
		{"20240102T040405+0100", 0},
		{"02/Jan/2024:03:04:05 +0000", 0}, // common log format
		{"Tue, 02 Jan 2024 03:04:05 GMT", 0},
		{"Tue, 02 Jan 2024 04:04:05 +0100", 0},
		{"Tue, 2 Jan 2024 03:04:05 UTC", 0},
		{"Tuesday, 02-Jan-24 03:04:05 GMT", 0},
		{"Tue Jan  2 03:04:05 2024", 0}, // ANSI C
		{"Tue Jan  2 03:04:05 UTC 2024", 0},
		{"2024-01-02 03:04", -5 * time.Second}, // spreadsheets: no seconds
		{"2024-01-02T03:04", -5 * time.Second},
		{"02.01.2024 03:04:05", 0}, // day.month.year
		{"02.01.2024 03:04", -5 * time.Second},
		{"02.01.2024", -(3*time.Hour + 4*time.Minute + 5*time.Second)},
		{"2.1.2024", -(3*time.Hour + 4*time.Minute + 5*time.Second)},
	} {
		last := -1
		got, err := parseTextTime([]byte(c.in), &last)
		if err != nil || got != want.Add(c.frac).UnixNano() {
			t.Errorf("%q: %v, %v; want %v", c.in, time.Unix(0, got).UTC(), err, want.Add(c.frac))
		}
	}
	if _, err := parseTextTime([]byte("2024/01/02"), new(int)); err != nil {
		t.Errorf("a date with slashes: %v", err)
	}
	for _, c := range []struct{ in, err string }{
		{"Tue, 02 Jan 2024 03:04:05 EST", "zone EST is ambiguous"},
		{"Tuesday, 02-Jan-24 03:04:05 PST", "zone PST is ambiguous"},
		{"1/2/2024 3:04", "give its Go layout"},
		{"2024.01.02", "not a time"},
		{"yesterday", "not a time"},
	} {
		last := -1
		if _, err := parseTextTime([]byte(c.in), &last); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
		}
	}

	csv := "when,v\n2024-01-02 03:04:05+00,1\n2024-01-02 03:04:06.5+00,2\n2024-01-02T03:04:07Z,3\nnope,4\n"
	p, err := NewParser(bytes.NewReader([]byte(csv)), Options{Mapping: Mapping{Time: "when"}})
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	err = p.Fill(&b)
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 5 || !strings.Contains(pe.Msg, `"nope": not a time`) {
		t.Fatalf("%v", err)
	}
	p, _ = NewParser(bytes.NewReader([]byte(csv[:strings.Index(csv, "nope")])), Options{Mapping: Mapping{Time: "when"}})
	if err := p.Fill(&b); err != nil || b.Rows != 3 {
		t.Fatal(err, b.Rows)
	}
	for i, d := range []time.Duration{0, 1500 * time.Millisecond, 2 * time.Second} {
		if b.Time[i] != want.Add(d).UnixNano() {
			t.Errorf("row %d: %v", i, time.Unix(0, b.Time[i]).UTC())
		}
	}
}
