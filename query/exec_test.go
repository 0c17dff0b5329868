package query

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/chunk"
)

// testSource builds a source of n generated rows in blocks of up to
// maxBlock rows.
func testSource(t testing.TB, n, maxBlock int) (*memSource, []trow) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	rows := genRows(rng, n, modelNow.Add(-5*time.Hour).UnixNano())
	src, err := buildSource(rng, rows, maxBlock)
	if err != nil {
		t.Fatal(err)
	}
	return src, rows
}

func openOnly(src Source) Opener {
	return func(name string) (Source, error) {
		if name != "m" {
			return nil, errors.New("stream not found")
		}
		return src, nil
	}
}

func explainLines(t *testing.T, src Source, q string) string {
	t.Helper()
	rows, err := runCells(q, openOnly(src), &Options{Now: modelNow})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var lines []string
	for _, r := range rows {
		lines = append(lines, r[0].(string))
	}
	return strings.Join(lines, "\n")
}

func TestPruning(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	for _, sg := range src.segs {
		sg.(*memSeg).sealed = true
	}
	mid := rows[1500].time
	ts := time.Unix(0, mid).UTC().Format(time.RFC3339)
	for _, tc := range []struct{ q, want string }{
		{"EXPLAIN SELECT * FROM m", "pruned by seq, 0 pruned by time, 0 pruned by series bloom"},
		{"EXPLAIN SELECT * FROM m WHERE seq > 2900", "blocks: "},
		{"EXPLAIN SELECT avg(v) FROM m WHERE time >= '" + ts + "' GROUP BY time(5m)", "columns decoded: seq, time"},
		{"EXPLAIN SELECT * FROM m WHERE series = 'nope'", "pruned by series bloom"},
	} {
		out := explainLines(t, src, tc.q)
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s:\n%s\nwant %q", tc.q, out, tc.want)
		}
		t.Logf("%s\n%s", tc.q, out)
	}
	src.deleted = roaring64.BitmapOf(1, 2, 3)
	if out := explainLines(t, src, "EXPLAIN SELECT * FROM m"); !strings.Contains(out, "soft-deleted: 3 seqs hidden") {
		t.Errorf("EXPLAIN with soft deletes:\n%s", out)
	}
	src.deleted = nil
	// The numbers: a seq bound prunes all but the last blocks, a time
	// bound about half, an absent series every segment.
	check := func(q string, scanned func(total, got int) bool) {
		t.Helper()
		out := explainLines(t, src, q)
		var total, got int
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "blocks: ") {
				if _, err := fmtSscanf(l, "blocks: %d total, %d scanned", &total, &got); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !scanned(total, got) {
			t.Errorf("%s: %d of %d blocks scanned\n%s", q, got, total, out)
		}
	}
	check("EXPLAIN SELECT * FROM m WHERE seq > 2900", func(total, got int) bool { return got > 0 && got <= 5 })
	check("EXPLAIN SELECT * FROM m WHERE time >= '"+ts+"'", func(total, got int) bool { return got > total/4 && got < total*3/4 })
	check("EXPLAIN SELECT * FROM m WHERE series = 'nope'", func(total, got int) bool { return got == 0 && total > 0 })
	check("EXPLAIN SELECT * FROM m WHERE series IN ('disk', 'nope')", func(total, got int) bool { return got > total/2 })
	check("EXPLAIN SELECT * FROM m WHERE series = 'nope' OR (series = 'nope2' AND v > 1)", func(total, got int) bool { return got == 0 && total > 0 })
	check("EXPLAIN SELECT * FROM fold(m) AS OF SEQ 100", func(total, got int) bool { return got <= 5 })
	// The pruned query's answer equals the unpruned filter's.
	a, err := runCells("SELECT count(*) FROM m WHERE time >= '"+ts+"'", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, r := range rows {
		if r.time >= mid/1e9*1e9 {
			want++
		}
	}
	if a[0][0].(int64) != want {
		t.Errorf("count after pruning %v, want %d", a[0][0], want)
	}
}

func TestCancel(t *testing.T) {
	src, _ := testSource(t, 3000, 20)
	for _, q := range []string{"SELECT * FROM m", "SELECT avg(v) FROM m GROUP BY series", "SELECT * FROM fold(m)", "SELECT * FROM m ORDER BY v"} {
		if _, err := Fields(src); err != nil { // cache the schema: count only scan reads
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var reads atomic.Int64
		for _, sg := range src.segs {
			sg.(*memSeg).delay = func() {
				if reads.Add(1) == 10 {
					cancel()
				}
			}
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := Run(ctx, q, openOnly(src), &Options{Allocator: mem, BatchRows: 16, Parallelism: 2})
		if err == nil {
			for rr.Next() {
			}
			err = rr.Err()
			rr.Release()
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err %v, want context.Canceled", q, err)
		}
		if n := reads.Load(); n > 20 {
			t.Errorf("%s: %d blocks read after cancelling at 10", q, n)
		}
		mem.AssertSize(t, 0)
		cancel()
	}
}

// TestStreamWindow checks that a raw scan reads a bounded number of
// blocks ahead of the consumer.
func TestStreamWindow(t *testing.T) {
	src, rows := testSource(t, 3000, 20)
	if _, err := Fields(src); err != nil { // cache the schema: count only scan reads
		t.Fatal(err)
	}
	var reads atomic.Int64
	for _, sg := range src.segs {
		sg.(*memSeg).delay = func() { reads.Add(1) }
	}
	rr, err := Run(context.Background(), "SELECT seq FROM m", openOnly(src), &Options{BatchRows: 10, Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	time.Sleep(50 * time.Millisecond)
	// window (2·P) queued + P in the workers + the one being consumed.
	if n := reads.Load(); n > 2*2+2+2 {
		t.Errorf("%d blocks read while the consumer holds its first batch", n)
	}
	total := rr.RecordBatch().NumRows()
	for rr.Next() {
		total += rr.RecordBatch().NumRows()
	}
	if rr.Err() != nil || total != int64(len(rows)) {
		t.Errorf("%d rows, err %v; want %d", total, rr.Err(), len(rows))
	}
}

// TestTimeBeyondInt64: a time literal before 1677-09-21 or after
// 2262-04-11 is the earliest or latest time (as arithmetic on times
// saturates), not a time wrapped around int64 nanoseconds.
func TestTimeBeyondInt64(t *testing.T) {
	src, rows := testSource(t, 300, 20)
	for _, tc := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM m WHERE time >= '0001-01-01'", int64(len(rows))},
		{"SELECT count(*) FROM m WHERE time < '1500-01-01T00:00:00Z'", 0},
		{"SELECT count(*) FROM m WHERE time <= '2500-01-01'", int64(len(rows))},
		{"SELECT count(*) FROM m WHERE time > '9999-12-31T23:59:59Z'", 0},
		{"SELECT count(*) FROM m WHERE time BETWEEN '1000-01-01' AND '3000-01-01'", int64(len(rows))},
	} {
		a, err := runCells(tc.q, openOnly(src), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if a[0][0].(int64) != tc.want {
			t.Errorf("%s: %v, want %d", tc.q, a[0][0], tc.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	src, _ := testSource(t, 200, 20)
	for _, tc := range []struct {
		q        string
		col      int
		contains string
	}{
		{"SELECT * FROM nope", 15, "stream not found"},
		{"SELECT nope FROM m", 8, `unknown column "nope"`},
		{"SELECT * FROM m WHERE zz > 1", 23, `unknown column "zz"`},
		{"SELECT * FROM m WHERE v = 'x'", 27, "type mismatch"},
		{"SELECT * FROM m WHERE s > 3", 27, "type mismatch"},
		{"SELECT * FROM m WHERE b = 1", 27, "type mismatch"},
		{"SELECT * FROM m WHERE time > 'yesterday'", 30, "bad time"},
		{"SELECT * FROM m WHERE seq = 'x'", 29, "type mismatch"},
		{"SELECT * FROM m WHERE op = 'upsert'", 28, "op is one of"},
		{"SELECT sum(s) FROM m", 12, "type mismatch"},
		{"SELECT avg(v) FROM m GROUP BY time(0)", 36, "bucket of 0"},
		{"SELECT * FROM m WHERE series =~ '[a-'", 33, "bad regular expression"},
		{"SELECT v, avg(n) FROM m", 8, "must be grouped"},
		{"SELECT * FROM m GROUP BY series", 15, "cannot be grouped"},
		{"SELECT * FROM m ORDER BY zz", 26, "not a result column"},
		{"SELECT * FROM m WHERE v = NULL", 27, "IS NULL"},
		{"SELECT * FROM m WHERE key ~ cpu", 23, "~ matches series"},
	} {
		_, err := Run(context.Background(), tc.q, openOnly(src), nil)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v, want *Error", tc.q, err)
			continue
		}
		if e.Col != tc.col || !strings.Contains(e.Error(), tc.contains) {
			t.Errorf("%s: col %d %q, want col %d containing %q\n%s", tc.q, e.Col, e.Error(), tc.col, tc.contains, e.Caret(tc.q))
		}
	}
}

func fmtSscanf(s, format string, args ...any) (int, error) { return fmt.Sscanf(s, format, args...) }

// FuzzQuery runs any parseable query over a small generated stream: no
// input may panic, and every planning error is a positioned *Error.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		`SELECT s->'$.a[#-1]'->>'b', json_extract(s, '/x/0'), json_type(s), json_array_length(s, '$.a'), json_valid(s) FROM m WHERE s->>'k' = 'v' OR s->>0 IS NULL`,
		`SELECT host, json_group_array(v ORDER BY time DESC), json_group_object(s, n) FILTER (WHERE b), json_object('a', max(v), 'h', host), to_json(min(time)) FROM m GROUP BY host`,
		"SELECT max(time) - min(time) AS d, sum(g), min(g) FROM (SELECT host, time - lag(time) AS g FROM m) WHERE g > 1s AND g IN (2s, 3s) GROUP BY host HAVING d > 1h",
		"SELECT to_seconds(n), to_days(v), epoch_ms(5m), 2 * 1h - 30m, -(time - now()), abs(now() - time) FROM m ORDER BY 4 LIMIT 3",
		"SELECT * FROM m WHERE series ~ cpu{host=\"a\"} AND v > 1 ORDER BY time DESC LIMIT 3",
		"SELECT s, count(*) FROM (SELECT * FROM m ORDER BY v LIMIT 12.5% OFFSET 2) GROUP BY s UNION SELECT s, 1 FROM m LIMIT 50 PERCENT",
		"SELECT count(*), rate(n), quantile(0.5, x), first(s) FROM fold(m) AS OF SEQ 50 GROUP BY time(1m), host, key",
		"SELECT min(series), max(time), last(b) FROM m WHERE NOT (s IS NULL OR n IN (1, 2)) GROUP BY s ORDER BY s",
		"EXPLAIN SELECT v FROM m WHERE time BETWEEN now() - 3h AND now() AND seq != 4",
		"SELECT time, lag(s, 2), lead(time), lag(v, 0) FROM m WHERE s ILIKE 'a%' ORDER BY 3 LIMIT 9",
		"SELECT time, avg(v), lead(avg(v), 3), lag(host) FROM m GROUP BY time(10m), host",
		"SELECT host, arg_max(time, v), min_by(s, n % 3) FILTER (WHERE b) FROM m GROUP BY time(10m), host HAVING arg_max(time, v) > now() - 1h",
		"SELECT greatest(v, n, 1.5), least(s, key), nullif(n % 3, 0) FROM m WHERE greatest(time, now() - 1h) = time AND least(v, x) > 2",
		"SELECT seq, row_number() OVER (PARTITION BY s ORDER BY n DESC, v), rank() OVER (), dense_rank() OVER (ORDER BY time) FROM m",
		"SELECT host, max(v), rank() OVER (PARTITION BY lower(host) ORDER BY max(v) DESC, count(*)), lag(host) OVER (ORDER BY host) FROM m GROUP BY host",
		"SELECT seq, v - lag(v), coalesce(time - lag(time), 0) / 1e9 AS g, concat(s, row_number()), -rank() OVER (ORDER BY n) FROM m ORDER BY g DESC LIMIT 5",
		"SELECT host, avg(v) - lag(avg(v)), dense_rank() OVER (ORDER BY count(*)) * 2 FROM m GROUP BY time(10m), host",
		"SELECT seq, v / sum(v) OVER (PARTITION BY s), avg(n) OVER (ORDER BY x DESC), min(s) OVER (), count(*) OVER (PARTITION BY host) FROM m",
		"SELECT host, count(*) * 100.0 / sum(count(*)) OVER (), max(avg(v)) OVER (ORDER BY host) FROM m GROUP BY host",
		"SELECT seq, lag(v) AS l, row_number() OVER (PARTITION BY s) AS rn, time - lag(time) AS g FROM m QUALIFY rn <= 2 AND (l > 3 OR g > 10s) ORDER BY g LIMIT 7",
		"SELECT host, count(*), rank() OVER (ORDER BY count(*)) AS r FROM m GROUP BY host HAVING max(time) - min(time) > 1h QUALIFY r < 3",
		"SELECT seq, n, rank() OVER (ORDER BY v DESC NULLS LAST, n NULLS FIRST) FROM m ORDER BY n DESC NULLS LAST, 3 NULLS FIRST LIMIT 9",
		"SELECT seq, avg(v) OVER (ORDER BY time RANGE BETWEEN 1m PRECEDING AND 30s FOLLOWING), max(n) OVER (PARTITION BY s ROWS 3 PRECEDING), count(*) OVER (ORDER BY n GROUPS BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING) FROM m",
		"SELECT seq, avg(v) OVER w, rank() OVER (w ORDER BY n), sum(n) OVER x FROM m WINDOW w AS (PARTITION BY s), x AS (w ORDER BY time ROWS 2 PRECEDING) QUALIFY row_number() OVER x < 4",
		"SELECT v::bigint, (v * 2)::varchar(9), round(n)::int::text FROM m WHERE time > '2020-01-01'::timestamp - INTERVAL 3 DAYS AND v::double > '1'::float",
		"SELECT seq, v - (SELECT avg(v) FROM m) FROM m WHERE time > (SELECT max(time) FROM m) - 1h AND v < (SELECT max(v) FROM m WHERE v < (SELECT avg(v) FROM m)) ORDER BY abs(v - (SELECT min(v) FROM m))",
		"SELECT seq, last_value(x IGNORE NULLS) OVER (ORDER BY time ROWS UNBOUNDED PRECEDING), lag(x, 2) IGNORE NULLS OVER w, nth_value(v, 2 IGNORE NULLS) OVER (w ROWS 3 PRECEDING), left(s, 2), lpad(s, 5, '-') FROM m WINDOW w AS (PARTITION BY host ORDER BY time)",
		"SELECT host, count_if(v > 3), bool_or(b), any_value(s), quantile_disc(v, 0.5), percentile_cont(0.9) WITHIN GROUP (ORDER BY n DESC), power(avg(v), 2), sign(min(n)) FROM m GROUP BY host",
		"SELECT seq, CASE WHEN v > 1 THEN NULL ELSE v END, coalesce(NULL, s), NULL, v + NULL, avg(v) OVER (ORDER BY time ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE TIES) FROM m",
		"SELECT DISTINCT ON (host, n % 2) host, n % 2 AS p, v FROM m ORDER BY host, p, v DESC LIMIT 5",
		"SELECT o.seq, (SELECT avg(v) FROM m WHERE s = o.s AND n % 3 = o.n % 3) AS a, (SELECT x FROM m WHERE key = o.key ORDER BY time DESC LIMIT 1) FROM m AS o WHERE EXISTS (SELECT 1 FROM m WHERE host = o.host AND v > 3) AND NOT EXISTS (SELECT 1 FROM m WHERE v > 1e9)",
		"SELECT host, count(*) FROM m AS o GROUP BY host HAVING count(*) > (SELECT count(*) / 10 FROM m WHERE m.host = o.host)",
		"SELECT host, s, n % 3 AS r, count(*), sum(v), grouping(host, r) FROM m GROUP BY time(10m), ROLLUP (host, r), CUBE (s) HAVING grouping(s) = 0 ORDER BY 1, 2 LIMIT 20",
		"SELECT s, count(*) FROM m GROUP BY GROUPING SETS ((s), (), (s, key)) ORDER BY s NULLS FIRST",
		"SELECT upper(s) AS u, skewness(v), kurtosis(n), mode(key), entropy(s), mad(v), bit_or(n) FROM m WHERE u > 'B' GROUP BY ROLLUP (u) UNION ALL SELECT s, product(v), geomean(n), typeof(sum(v)), kurtosis_pop(x), 0, bit_xor(n) FROM m WHERE s > 'B' GROUP BY s",
		"SELECT levenshtein(s, key), damerau_levenshtein(series, s), hamming(s, 'beta'), jaccard(s, series), jaro_winkler_similarity(s, 'alpha'), sha256(key), round(n, -1), trunc(n, -2), factorial(n % 25), bit_count(n), xor(n, 7), date_sub('month', time, now()), date_add(time, INTERVAL 1 MONTH) FROM m WHERE regexp_full_match(s, 'a.*a|b.*')",
		"SELECT host, string_agg(s, '|' ORDER BY v DESC NULLS FIRST, n), count(*) AS c FROM m GROUP BY host HAVING max(v) <> min(v) ORDER BY c * -1, length(host)",
		"SELECT time + INTERVAL 1 MONTH, n // 3, log(2, v), trunc(v, -1), gcd(n, 6), concat_ws('-', s, NULL, v), make_date(2024, n % 13, 29) FROM m WHERE v IS DISTINCT FROM x AND time > now() - INTERVAL 2 MONTH",
		"SELECT host, CASE WHEN count(*) > 3 AND NOT (max(v) IS NULL) THEN 'a' WHEN sum(n) < 0 OR min(s) = 'x' THEN host END, max(v) > 1 AS hot, if(avg(v) IS NULL, 0, 1) FROM m WHERE v2 > 1 GROUP BY host ORDER BY v IS NULL",
		"SELECT millisecond(time), isoyear(time, 'Asia/Tokyo'), last_day(time), translate(s, 'ab', 'x'), md5(host) AS h FROM m QUALIFY row_number() OVER (PARTITION BY s ORDER BY time) = 1 AND n > 2 ORDER BY abs(h)",
		"SELECT seq, sum(v) OVER (PARTITION BY s ORDER BY time RANGE BETWEEN 1mo PRECEDING AND INTERVAL '1 year' FOLLOWING), max(n) OVER (ORDER BY time DESC RANGE 2y PRECEDING) FROM m",
		"SELECT a.seq, b.v, c.*, d.s FROM m AS a JOIN m AS b ON a.n = b.n LEFT JOIN m c USING (series) ASOF JOIN m AS d ON b.time >= d.time WHERE a.v > 1 AND c.s = 'x' LIMIT 9",
		"SELECT host, corr(v, n), regr_slope(v, epoch(time)), covar_samp(n, x), regr_count(v, v) FROM m GROUP BY host HAVING regr_r2(v, n) >= 0",
		"SELECT host, sum(sum(v)) OVER (ORDER BY time RANGE 10m PRECEDING), first_value(max(n)) OVER (ORDER BY max(x) DESC RANGE BETWEEN 2.5 FOLLOWING AND 9 FOLLOWING) FROM m GROUP BY time(1m), host",
		"SELECT regexp_extract(series, 'host=\"(\\w+)', 1) AS h, regexp_replace(s, '(a)(l)', '\\2\\1', 'gi') FROM m WHERE regexp_extract(key, '\\d') != '' GROUP BY h, 2",
		"SELECT seq, ntile(3) OVER (PARTITION BY s ORDER BY n DESC), percent_rank() OVER (ORDER BY v NULLS FIRST), cume_dist() FROM m QUALIFY cume_dist() > 0.5",
		"SELECT seq, v - first_value(v) OVER (PARTITION BY s ORDER BY n), last_value(s) OVER (ORDER BY n DESC), nth_value(time, 2) OVER (PARTITION BY host) FROM m",
		"SELECT * FROM m QUALIFY row_number() OVER (PARTITION BY s ORDER BY n DESC) <= 2 AND v > avg(v) OVER () OR lag(n) IS NULL",
		"SELECT s, string_agg(key, '; '), string_agg(lower(series)) FILTER (WHERE b) FROM m GROUP BY time(10m), s HAVING string_agg(key) != ''",
		"SELECT date_diff('minute', lag(time), time) AS g, date_diff('Weeks', '2020-01-01', max(time)) FROM m GROUP BY time(1h) QUALIFY g > 60",
		"SELECT series ser, count(*) n, max(v) `m x` FROM m GROUP BY ser ORDER BY n DESC",
		"SELECT CASE s WHEN 'alpha' THEN n WHEN lower(key) THEN 2 END AS c, count(*) FROM m GROUP BY c",
		"SELECT seq, difference(n), derivative(v, 1m), moving_average(x * 2, 3) AS a FROM m WHERE v > 0 ORDER BY a DESC LIMIT 4",
		"SELECT host, cumulative_sum(count(*)), non_negative_derivative(sum(n)) FROM m GROUP BY time(10m), host HAVING count(*) > 1",
		"SELECT stddev(v), median(x), spread(n), var_pop(v) FROM m GROUP BY s",
		"SELECT s, b FROM m WHERE n > 3 UNION SELECT s, b FROM m WHERE v < 2 INTERSECT ALL SELECT key, true FROM m EXCEPT SELECT s, NULL FROM m ORDER BY s LIMIT 5",
		"SELECT *, v * 2 AS d, rank() OVER (ORDER BY n) FROM m AS a FULL JOIN m AS b USING (s) CROSS JOIN (SELECT 1 AS one) AS c QUALIFY d > 1",
		"SELECT * EXCLUDE (seq, op) REPLACE (v * 2 AS v), n FROM m WHERE v > 1",
		"EXPLAIN ANALYZE SELECT s, count(*) FROM m WHERE v > 1 GROUP BY ROLLUP (s) UNION SELECT key, 1 FROM m",
		"DESCRIBE SELECT *, lag(v) OVER w FROM m WINDOW w AS (ORDER BY time) EXCEPT ALL SELECT *, 1 FROM m",
		"SELECT v > 1 AS h, NOT b, (n BETWEEN 2 AND 5)::int, s || key || n, bool_and(x > 2 OR b) FROM m WHERE coalesce(v > 3, b) GROUP BY h, 2, 3, 4",
		"SELECT name, count(*) FROM (UNPIVOT (SELECT s, v, x, n FROM m) ON v, x, n INTO NAME name VALUE val ORDER BY val LIMIT 40) GROUP BY name",
		"SELECT l.x, count(*) FROM m JOIN (VALUES ('alpha', 1), ('beta', NULL)) AS l(s, x) USING (s) WHERE l.x IS NULL OR v > 1 GROUP BY l.x",
		"SELECT count(*) FROM read_csv('a/x.csv') AS f JOIN m USING (seq) WHERE f.v > 1 UNION ALL SELECT n FROM 'b.parquet'",
		"PIVOT (SELECT * FROM m WHERE v > 1) ON s, n > 3 USING count(*), max(v) - min(x) AS r GROUP BY time(10m), host ORDER BY time LIMIT 4",
		"PIVOT m ON s USING avg(v) ORDER BY ALL DESC LIMIT 3",
		"VALUES (1, 'a'), (2, NULL) ORDER BY 2 LIMIT 1",
		"SELECT lag(v, 2, -1) OVER (PARTITION BY series ORDER BY time), upper(s) ILIKE 'a!%' ESCAPE '!', trim(s, 'a') FROM m AS a JOIN m AS b ON a.seq = b.seq AND a.v < b.n",
		"SELECT var_samp(v), min(v > 1) FROM m WHERE n * 2 NOT IN (SELECT n FROM m WHERE v IS NULL) HAVING max(n) > 1",
		"SELECT series FROM m WHERE hour(time) NOT IN (SELECT hour(time) FROM m WHERE v > 1) GROUP BY series HAVING count(*) > 2",
		"SELECT CAST(time AS DATE), avg(v)::DECIMAL(9, 2), dayname(time), position('a' IN s), lag(v > 1) OVER (ORDER BY time) FROM (SELECT * FROM m) WHERE (n * 2) NOT BETWEEN 1 AND 9",
		"SUMMARIZE SELECT s, n % 3 AS r, b FROM m WHERE v > 1",
		"SELECT a.s, b.n, c.v FROM m a, m b, (SELECT 1 AS v) c WHERE a.n = b.n + 1 AND b.s = a.s ORDER BY ALL DESC",
		"SELECT if(b AND n > 3, mod(n, 4), ifnull(x, n)) FROM m",
		"SELECT string_agg(DISTINCT s, ';') FROM m AS o WHERE n IN (SELECT n + 1 FROM m WHERE key = o.key) OR v NOT IN (SELECT min(v) FROM m WHERE s = o.s)",
		"DELETE FROM m WHERE n > 3",
		"DESCRIBE m",
		"SELECT n % 3 AS r, -n % 4, v % 2.5, substr(s, n % 5, n) FROM m WHERE n % 2 = 0 ORDER BY r",
		"EXPLAIN SELECT CASE WHEN series IN (SELECT series FROM m LIMIT 2) THEN lower(s) END AS k, max(v) FROM (SELECT * FROM m WHERE split_part(series, '{', 1) = 'cpu') GROUP BY k ORDER BY max(v) DESC LIMIT 3",
		"SELECT CASE WHEN b THEN upper(s) WHEN n > 3 THEN substr(key, 2) END AS c, count(DISTINCT concat(series, n)) FROM m WHERE lower(s) NOT LIKE 'a%' AND split_part(series, '{', 1) IN ('cpu', 'mem') GROUP BY c ORDER BY c",
		"SELECT count(*) FILTER (WHERE n IN (SELECT n FROM m WHERE v > 3)) FROM m WHERE series NOT IN (SELECT series FROM m WHERE b) GROUP BY s HAVING s IN (SELECT s FROM m)",
		"SELECT series, avg(v * 2), count(DISTINCT hour(time)) FILTER (WHERE b), quantile(0.5, -n) FROM m GROUP BY series HAVING avg(v * 2) > 1",
		"SHOW SERIES FROM m LIMIT 2",
		"SELECT count(*), avg(v) FROM m GROUP BY time(1h, 15m, 'Europe/Berlin'), s FILL(previous)",
		"SELECT time, sum(n) FROM m WHERE time > now() - 1d GROUP BY time(1mo, 'Asia/Tokyo') FILL(0)",
		"SELECT time, host, avg(v) * 2, count(*), difference(avg(v)) FROM m GROUP BY time(7m), host FILL(linear) HAVING count(*) >= 0",
		"SELECT seq FROM m WHERE (v + 1) * 2 > n AND NOT abs(x - v) <= 3 OR series = key OR 1 = 1",
		"SELECT s, max(v), avg(v) FROM m GROUP BY s HAVING max(v) - avg(v) > 2 * avg(v) OR s > s",
		"SELECT series, hour(time) AS h, max(n) FROM (SELECT time, series, count(*) AS n, max(time) AS t FROM m GROUP BY time(1h), series) x GROUP BY series, h",
		"SELECT * FROM (SELECT * FROM (SELECT seq AS s, op, key, v FROM m ORDER BY v LIMIT 20) WHERE dayofweek(time, 'Asia/Tokyo') >= 0)",
		"SELECT series, count(*) FILTER (WHERE b AND v > 3), avg(n) FILTER (WHERE NOT b) AS a FROM m WHERE b OR n > 1 GROUP BY series HAVING a > 1 ORDER BY count(*) FILTER (WHERE b AND v > 3)",
		"SELECT date_trunc('week', time, 'Europe/Berlin') AS w, time_bucket(1mo, time), min(time) + 1h, now() - max(time) FROM m WHERE date_trunc('day', time) >= '2026-11-30' AND time - 1h30m < now() GROUP BY w, time_bucket(1mo, time) HAVING w > '2000-01-01' ORDER BY w",
		"SELECT time + 90s, '2026-12-01' + 1d - time, time_bucket(15m, time, -5m, 'Asia/Kolkata') FROM m WHERE now() - time < 3h ORDER BY time_bucket(15m, time) DESC LIMIT 5",
		"SELECT time + INTERVAL '1 hour 30 minutes', count(*) FROM m WHERE time > now() - interval '2 days' GROUP BY time(INTERVAL '1 month', 'Europe/Berlin')",
		"SELECT extract(dow FROM time) AS d, date_part('quarter', time, 'Asia/Tokyo'), count(*) FROM m WHERE date_part('epoch', time) > 0 GROUP BY d",
		"SELECT strftime(time, '%Y-%m-%dT%H %a %V %z', 'Asia/Kolkata') AS h, max(epoch(time)), min(to_timestamp(n)), concat(min(time), s) FROM m WHERE epoch_ms(time) % 3 = 1 GROUP BY h, s",
		"SELECT a.seq, b.v, time FROM m a ASOF LEFT JOIN m b ON a.series = b.series AND a.time > b.time WHERE b.v IS NOT NULL ORDER BY a.seq DESC LIMIT 5",
		"SELECT series, count(*), avg(a.v - b.x) FROM fold(m) a JOIN (SELECT * FROM m WHERE b) AS b ON a.key = b.key AND a.n = b.v GROUP BY series, time(1h)",
		"EXPLAIN SELECT * FROM m AS a INNER JOIN m AS b USING (series, s)",
		"SELECT b.`n`, n, x FROM m a LEFT OUTER JOIN (SELECT s, max(n) AS n FROM m GROUP BY s) b USING (s) ORDER BY b.n",
		"SELECT a.*, b.v FROM m a ASOF LEFT JOIN m b ON date_trunc('hour', a.time) = b.time + 1h AND lower(a.s) = b.s AND a.n * 2 <= b.n WHERE a.series = 'disk' LIMIT 9",
		"SELECT time, v FROM m WHERE b UNION ALL SELECT time, n FROM m WHERE NOT b UNION ALL SELECT max(time), count(*) FROM m ORDER BY v DESC LIMIT 4 OFFSET 1",
		"SELECT s, count(*) FROM (SELECT s FROM m UNION ALL SELECT key FROM fold(m)) WHERE s IN (SELECT s FROM m WHERE n > 2 UNION ALL SELECT 'x' FROM m) GROUP BY s",
		"EXPLAIN SELECT series FROM m a JOIN m b USING (series) UNION ALL SELECT series FROM m",
		"WITH h AS (SELECT time, series, avg(v) AS a FROM m GROUP BY time(10m), series), t AS (SELECT series, max(a) AS mx FROM h GROUP BY series) SELECT h.series, h.a FROM h JOIN t ON h.series = t.series AND h.a = t.mx WHERE h.series IN (SELECT series FROM t) ORDER BY h.a DESC",
		"SELECT hour(time) AS h, s, count(*) FROM m WHERE s ILIKE 'A%' OR lower(series) NOT ILIKE 'CPU%' GROUP BY ALL ORDER BY 3 DESC",
		"SELECT series, key, max(v) FROM m GROUP BY 2, 1 HAVING max(v) > 1",
		"SELECT CAST(v AS BIGINT) AS i, TRY_CAST(s AS DOUBLE), CAST(n AS VARCHAR) FROM m WHERE CAST(x AS DOUBLE) > 1 AND CAST(s AS INT) IS NULL ORDER BY i",
		"SELECT now() - 1d, 2 * 3 AS n UNION ALL SELECT max(time), count(*) FROM m WHERE 1 = 1 ORDER BY n LIMIT 1",
		"EXPLAIN WITH x AS (SELECT time, key, op, series, n FROM m WHERE b) SELECT count(*) FROM fold(x) AS OF SEQ 20 UNION ALL SELECT count(*) FROM x",
		"SELECT g.time, count(c.v) AS \"n v\", printf('%-8s|%5.1f', min(c.s), avg(c.v)), format('{:>6,}', count(*)) FROM generate_series(now() - 3h, now(), INTERVAL 1 HOUR) AS g(time) LEFT JOIN (SELECT time_bucket(1h, time, TIMESTAMP '2000-01-01 00:05') AS time, v, s FROM m WHERE s SIMILAR TO 'a.*' OR random() < 0.5) AS c USING (time) GROUP BY g.time",
		"SELECT range, strftime(time, '%-d %h %U %W %c %g %n'), uuid() FROM m CROSS JOIN range(2, 9, 3) WHERE s NOT SIMILAR TO '(b|g).*' ORDER BY random() LIMIT 5",
		"SELECT COLUMNS('^(v|s)'), hex(n), bin(s), format_bytes(n * 1000), to_base64(s), unicode(key), epoch_ms(n), era(time) FROM m",
		"SELECT count(*), avg(v) FROM m AS a USING SAMPLE 30% REPEATABLE (7) WHERE v > 1 UNION ALL SELECT count(*), 0 FROM m TABLESAMPLE 5 PERCENT (system)",
		"SELECT host, first(v ORDER BY time DESC), last(s ORDER BY n * 2) FILTER (WHERE b), mean(x) FROM m GROUP BY host HAVING first(n ORDER BY v) > 0",
		"SELECT seq, v FROM (SELECT * FROM fold(m) WHERE v > 0) AS q USING SAMPLE 5 ROWS REPEATABLE (2) WHERE s > 'a' UNION ALL SELECT count(*), 1 FROM m TABLESAMPLE reservoir(3 ROWS)",
		"SELECT series, max(COLUMNS('^(v|n)$')) AS hi, round(avg(COLUMNS(* EXCLUDE (seq, time, series, key, op, s, b, x))), 2), COLUMNS('^v') * 2 FROM m GROUP BY series",
		"SELECT (s, n) IN (('a', 1), ('b', NULL)) AS x, count(*) FROM m WHERE (series, time) NOT IN (SELECT series, max(time) FROM m GROUP BY series) GROUP BY x HAVING (x, count(*)) IN (SELECT true, 3)",
		"WITH h AS (FROM m SELECT s, max(v) AS hi GROUP BY s) FROM h SELECT s WHERE hi > 1 UNION ALL FROM (FROM fold(m) WHERE b) SELECT s LIMIT 3",
		"SELECT s, CASE WHEN max(v) >= ALL (SELECT v FROM m WHERE n > 3) THEN 1 END, n < SOME (SELECT n FROM m) FROM m WHERE v * 2 != ANY (SELECT x FROM m) GROUP BY s, n HAVING min(n) <= ALL (SELECT 3)",
	} {
		f.Add(s)
	}
	// Results are bounded by maxGroups and the like; a small bound keeps
	// each input quick (FILL over WHERE time > 0 makes every bucket
	// since 1970) and the fuzz workers' memory small.
	defer func(n int) { maxGroups = n }(maxGroups)
	maxGroups = 1 << 16
	rng := rand.New(rand.NewPCG(3, 4))
	rows := genRows(rng, 300, modelNow.Add(-5*time.Hour).UnixNano())
	src, err := buildSource(rng, rows, 30)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		st, err := Parse(q)
		if err != nil {
			return
		}
		st.Stream = "m"
		rr, err := Exec(context.Background(), st, q, openOnly(src), &Options{Now: modelNow, BatchRows: 17})
		if err != nil {
			var e *Error
			var fill *fillLimitError
			if !errors.As(err, &e) && !errors.As(err, &fill) && !errors.Is(err, errTooManyRows) && !errors.Is(err, errTooManyWindowRows) && !errors.Is(err, errTooManyGroups) && !errors.Is(err, errTooManyValues) {
				t.Fatalf("%q: %T %v", q, err, err)
			}
			return
		}
		for rr.Next() {
		}
		_ = rr.Err()
		rr.Release()
	})
}

func TestTooManyGroups(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	defer func(n int) { maxGroups = n }(maxGroups)
	maxGroups = 100
	_, err := Run(context.Background(), "SELECT count(*) FROM m GROUP BY time(1s), series", openOnly(src), nil)
	if !errors.Is(err, errTooManyGroups) {
		t.Errorf("err %v, want too many groups", err)
	}
	rows, err := runCells("SELECT count(*) FROM m GROUP BY series", openOnly(src), nil)
	if err != nil || len(rows) != len(testSeries) {
		t.Errorf("%d groups, err %v", len(rows), err)
	}
}

// TestCorruptBlock: a damaged block gives an error matching
// chunk.ErrCorrupt from every kind of query, never a panic.
func TestCorruptBlock(t *testing.T) {
	for _, q := range []string{"SELECT * FROM m", "SELECT avg(v) FROM m GROUP BY series", "SELECT * FROM fold(m)", "SELECT * FROM m ORDER BY v LIMIT 2"} {
		src, _ := testSource(t, 500, 40)
		if _, err := Fields(src); err != nil { // schema cached before the damage
			t.Fatal(err)
		}
		sg := src.segs[len(src.segs)/2].(*memSeg)
		bad := slices.Clone(sg.data[0])
		bad[len(bad)/2] ^= 0x40
		sg.data[0] = bad
		rr, err := Run(context.Background(), q, openOnly(src), nil)
		if err == nil {
			for rr.Next() {
			}
			err = rr.Err()
			rr.Release()
		}
		if !errors.Is(err, chunk.ErrCorrupt) {
			t.Errorf("%s: %v, want chunk.ErrCorrupt", q, err)
		}
	}
}

// TestJoinRuns: the runs of rows held without LIMIT, arriving from
// workers in any order, join in scan (seq) order; runs whose seqs
// interleave come out unsorted, which collectSorted then sorts.
func TestJoinRuns(t *testing.T) {
	run := func(seqs ...int64) rowRun {
		r := rowRun{seqs: seqs}
		for _, q := range seqs {
			r.rows = append(r.rows, []value{{i: q}})
		}
		return r
	}
	rows, seqs := joinRuns([]rowRun{run(7, 8, 9), run(), run(1, 2), run(4, 5, 6)}, 8)
	if want := []int64{1, 2, 4, 5, 6, 7, 8, 9}; !slices.Equal(seqs, want) || len(rows) != 8 || rows[2][0].i != 4 {
		t.Fatalf("joined %v, want %v", seqs, want)
	}
	if _, seqs := joinRuns([]rowRun{run(5, 9), run(1, 7)}, 4); slices.IsSorted(seqs) {
		t.Fatalf("interleaved runs joined sorted: %v", seqs)
	}
}
