package ingest

import "testing"

func TestGuessTimeField(t *testing.T) {
	for _, c := range []struct {
		name, in string
		f        Format
		want     string
	}{
		{"csv timestamp", "Timestamp,value\n2014-02-14 14:27:00,1\n", Guess, "Timestamp"},
		{"csv ts_ms", "series,ts_ms,value\na,1392388200000,0.1\n", CSV, "ts_ms"},
		{"csv order", "date,time,v\n2024-01-01,12:00,1\n", CSV, "time"},
		{"csv header only", "ts;v\n", Guess, "ts"},
		{"csv none", "a,b\n1,2\n", CSV, ""},
		{"csv bom quoted", "\ufeff\"time\",\"v\"\n1,2\n", Guess, "time"},
		{"jsonl", `{"action":"modify","timestamp":"2013-04-10T16:24:14Z","ts_ms":1365611054000}` + "\n", Guess, "timestamp"},
		{"jsonl time", `{"time":1,"v":2}` + "\n", JSONLines, "time"},
		{"jsonl cut", `{"a":1,"@timestamp":"2024-01-01T00:00:00Z"}` + "\n" + `{"a":`, JSONLines, "@timestamp"},
		{"jsonl nested only", `{"meta":{"time":1},"v":2}` + "\n", JSONLines, ""},
		{"json array", `[{"ts":1,"v":2},{"ts":2`, Guess, "ts"},
		{"line protocol", "cpu,host=a value=1 1700000000\n", Guess, ""},
		{"prometheus", "# TYPE x gauge\nx 1\n", Guess, ""},
		{"empty", "", Guess, ""},
		{"garbage", "\x00\x01{[\"", Guess, ""},
		{"camel case", `{"eventTime":"2024-01-01T00:00:00Z","v":1}` + "\n", JSONLines, "eventTime"},
		{"spaces", "Event Time,v\n2024-01-01T00:00:00Z,1\n", CSV, "Event Time"},
		{"created", "id,createdAt,updatedAt\n1,2024-01-01,2024-01-02\n", CSV, "createdAt"},
		{"utc", "Timestamp (UTC),v\n2024-01-01T00:00:00Z,1\n", CSV, ""},
		{"timestamp_utc", "TIMESTAMP_UTC,v\n2024-01-01T00:00:00Z,1\n", CSV, "TIMESTAMP_UTC"},
		{"german", "Datum;Wert\n2024-01-02;1,5\n", Guess, "Datum"},
		{"spanish", "fecha,valor\n2024-01-02,1\n", Guess, "fecha"},
	} {
		if got := GuessTimeField([]byte(c.in), c.f); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
