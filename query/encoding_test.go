package query

import (
	"fmt"
	"testing"
	"time"
)

// TestEncodingFuncs: hex, bin, base64, the readable sizes, bit and
// octet lengths and unicode give DuckDB 1.5's answers (taken from it);
// from_base64 of no base64 is NULL where DuckDB fails; hex of a float or
// a time is refused.
func TestEncodingFuncs(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	for q, want := range map[string]string{
		"SELECT hex(255), to_hex(-255), hex('é'), hex(''), hex(0)":                                                                                                                          "[[FF FFFFFFFFFFFFFF01 C3A9  0]]",
		"SELECT bin(-1), to_binary(5), bin('a'), bin(0), bin('')":                                                                                                                           "[[1111111111111111111111111111111111111111111111111111111111111111 101 01100001 0 ]]",
		"SELECT to_base64('abc'), base64(''), from_base64('YWJj'), from_base64(''), from_base64('!!!')":                                                                                     "[[YWJj  abc  <nil>]]",
		"SELECT format_bytes(1535), format_bytes(1536), format_bytes(1587), formatReadableSize(1048575)":                                                                                    "[[1.4 KiB 1.5 KiB 1.5 KiB 1023.9 KiB]]",
		"SELECT format_bytes(9223372036854775807), format_bytes(-1), format_bytes(0), format_bytes(1)":                                                                                      "[[8191.9 PiB -1 byte 0 bytes 1 byte]]",
		"SELECT format_bytes(1126), format_bytes(1127), formatReadableSize(5368709120)":                                                                                                     "[[1.0 KiB 1.1 KiB 5.0 GiB]]",
		"SELECT formatReadableDecimalSize(1000), formatReadableDecimalSize(999), formatReadableDecimalSize(1550)":                                                                           "[[1.0 kB 999 bytes 1.5 kB]]",
		"SELECT formatReadableDecimalSize(-1550), formatReadableDecimalSize(-9223372036854775808)":                                                                                          "[[-1.5 kB -9223.3 PB]]",
		"SELECT bit_length('abc'), octet_length('é'), unicode('é'), ord(''), unicode('')":                                                                                                   "[[24 2 233 -1 -1]]",
		"SELECT century(TIMESTAMP '2014-02-14'), decade(TIMESTAMP '2014-02-14'), millennium(TIMESTAMP '2014-02-14'), era(TIMESTAMP '2014-02-14'), date_part('era', TIMESTAMP '2014-02-14')": "[[21 201 3 1 1]]",
	} {
		if got := fmt.Sprint(mustRun(t, open, q)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT hex(1.5)", "hex() wants an integer or text, 1.5 is a float64", "1.5"},
		{"SELECT bin(time) FROM m", "bin() wants an integer or text, time is a time", "time"},
		{"SELECT format_bytes('a')", "wants an integer", "'a'"},
	})
}

// TestEpochMsOfInteger: epoch_ms of an integer that is no instant reads
// it as milliseconds since the epoch, giving an instant (DuckDB's
// epoch_ms(BIGINT)); of an instant it stays the milliseconds since the
// epoch; past the instants int64 holds it is NULL.
func TestEpochMsOfInteger(t *testing.T) {
	src, rows := testSource(t, 500, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT epoch_ms(1700000000000), epoch_ms(-1), epoch_ms(9223372036854775807), epoch_ms(TIMESTAMP '2024-01-01'), typeof(epoch_ms(5))")
	want := fmt.Sprint([][]any{{time.Date(2023, 11, 14, 22, 13, 20, 0, time.UTC).UnixNano(), int64(-1e6), nil, int64(1704067200000), "TIMESTAMP"}})
	if fmt.Sprint(got) != want {
		t.Errorf("got %v, want %s", got, want)
	}
	// Both ways round: the milliseconds of each row's time, back to an
	// instant, is the time cut to the millisecond.
	back := mustRun(t, open, "SELECT seq, epoch_ms(epoch_ms(time)) AS t FROM m ORDER BY seq")
	if len(back) != len(rows) {
		t.Fatalf("%d rows, want %d", len(back), len(rows))
	}
	for i, r := range back {
		if w := floorDiv(rows[i].time, 1e6) * 1e6; r[1] != w {
			t.Fatalf("seq %v: %v, want %d", r[0], r[1], w)
		}
	}
}
