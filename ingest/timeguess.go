package ingest

import (
	"strings"
	"unicode"
)

// timeNames are the field names GuessTimeField takes for the time, the
// first present winning (compared by timeNameKey: without case, '_',
// '-', ' ' and '@', so eventTime and "Event Time" are event_time).
var timeNames = []string{"time", "timestamp", "ts", "_time", "@timestamp", "datetime", "date",
	"ts_ms", "time_ms", "timestamp_ms", "event_time", "created_at",
	"timestamp_utc", "time_utc", "datetime_utc", "dt", "occurred_at", "logged_at", "recorded_at", "updated_at",
	"zeit", "zeitstempel", "datum", "fecha", "horodatage"}

// timeNameKey is name as timeNames are compared.
func timeNameKey(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ', '@':
			return -1
		}
		return unicode.ToLower(r)
	}, name)
}

// GuessTimeField returns the field of a CSV or JSON input that most
// likely holds each record's time, from the first record in head (the
// input's first bytes): the first of timeNames it has (time, timestamp,
// ts, ..., as timeNameKey compares them), as the input spells it; "" when it has
// none or for line protocol and Prometheus text, whose records carry
// their time. Arrow carries types: its guess is the first timestamp or
// date column named so, else the first timestamp or date column.
func GuessTimeField(head []byte, f Format) string { return GuessRecord(head, f).Time }

// pickTimeName returns the first of names, in timeNames' order, that
// names a time; "" for none.
func pickTimeName(names []string) string {
	for _, want := range timeNames {
		for _, n := range names {
			if timeNameKey(n) == timeNameKey(want) {
				return n
			}
		}
	}
	return ""
}
