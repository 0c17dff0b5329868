// Runs the aggregate of tsq's BenchmarkQueryAggregate with DuckDB on a tsq
// Parquet export and prints every group as JSON:
//   [[series, bucket start (ns, string), count(value), avg(value), max(value)], ...]
// ordered by series and bucket.
// Usage: node buckets_parquet.mjs <file.parquet> [bucket minutes, default 5]
import { DuckDBInstance } from '@duckdb/node-api';

const [path, minutesArg] = process.argv.slice(2);
if (!path) {
  console.error('usage: node buckets_parquet.mjs <file.parquet> [minutes]');
  process.exit(2);
}
const minutes = Number(minutesArg ?? 5);
const q = s => "'" + s.replaceAll("'", "''") + "'";
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`SET TimeZone = 'UTC'`);
const res = await con.runAndReadAll(`SELECT series, CAST(epoch_ns(time_bucket(INTERVAL ${minutes} MINUTE, time)) AS VARCHAR) AS b,
    count(value) AS n, avg(value) AS a, max(value) AS m
  FROM read_parquet(${q(path)}) GROUP BY ALL ORDER BY series, b`);
const out = res.getRows().map(([s, b, n, a, m]) => [s, b, Number(n), a, m]);
console.log(JSON.stringify(out));
