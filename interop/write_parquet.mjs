// Writes a Parquet file with DuckDB: 5,000 rows of the column types
// DuckDB users export (timestamps, text, integers of several widths,
// doubles, decimals, booleans, dates, lists, structs, nulls), and prints
// JSON with DuckDB's aggregates of it, for tsq's import to match.
// Usage: node write_parquet.mjs <out.parquet>
import { DuckDBInstance } from '@duckdb/node-api';

const path = process.argv[2];
if (!path) {
  console.error('usage: node write_parquet.mjs <out.parquet>');
  process.exit(2);
}
const q = s => "'" + s.replaceAll("'", "''") + "'";
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rows = async sql => (await con.runAndReadAll(sql)).getRowObjects();
await con.run(`CREATE TABLE t AS SELECT
    TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i) AS ts,
    'host' || (i % 7) AS host,
    i AS n,
    (i % 100)::INTEGER AS small,
    i / 3.0 AS x,
    (i * 1.25)::DECIMAL(12, 2) AS price,
    i % 2 = 0 AS even,
    CASE WHEN i % 5 = 0 THEN NULL ELSE 'note ' || i END AS note,
    [i, i + 1] AS pair,
    {'a': i, 'b': 'x'} AS st,
    DATE '2024-01-01' + (i % 30)::INTEGER AS day,
    i::UBIGINT AS u
  FROM range(5000) r(i)`);
await con.run(`COPY t TO ${q(path)} (FORMAT parquet)`);
const num = v => (typeof v === 'bigint' ? Number(v) : v);
const [a] = await rows(`SELECT count(*) AS rows, sum(n) AS n, sum(small) AS small, sum(x) AS x,
    sum(price)::DOUBLE AS price, count(*) FILTER (even) AS even, count(note) AS notes,
    CAST(epoch_ns(min(ts)) AS VARCHAR) AS min_ts, CAST(epoch_ns(max(ts)) AS VARCHAR) AS max_ts,
    sum(st.a) AS st_a, sum(u) AS u, count(DISTINCT host) AS hosts FROM t`);
const out = {};
for (const [k, v] of Object.entries(a)) out[k] = num(v);
console.log(JSON.stringify(out));
