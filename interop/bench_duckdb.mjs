// Times DuckDB on a tsq Parquet export (warm: one untimed run first, then
// the median of -n runs), for comparison with tsq's BenchmarkAggregate:
//   aggregate: avg and max of value per series per 5-minute bucket, whole file;
//   selective: the same on one series over 1% of the time range.
// Usage: node bench_duckdb.mjs <file.parquet> [runs] [series] [from to]
// (from, to: RFC 3339; default the middle 1% of the series' time range).
// tsq's BenchmarkQuerySelective uses
//   nab/realKnownCause/nyc_taxi 2014-12-01T00:00:00Z 2014-12-16T00:00:00Z
import { DuckDBInstance } from '@duckdb/node-api';

const [path, runsArg, seriesArg, fromArg, toArg] = process.argv.slice(2);
if (!path) {
  console.error('usage: node bench_duckdb.mjs <file.parquet> [runs] [series]');
  process.exit(2);
}
const runs = Number(runsArg ?? 5);
const q = s => "'" + s.replaceAll("'", "''") + "'";
const src = `read_parquet(${q(path)})`;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`SET TimeZone = 'UTC'`);
const threads = (await (await con.runAndReadAll(`SELECT current_setting('threads') AS t`)).getRowObjects())[0].t;

const one = async sql => (await (await con.runAndReadAll(sql)).getRowObjects())[0];
const info = await one(`SELECT count(*) AS n, min(series) AS s FROM ${src}`);
const series = seriesArg ?? info.s;
// 1% of the chosen series' time range, in its middle.
const span = await one(`SELECT CAST(epoch_ns(min(time)) AS VARCHAR) AS lo, CAST(epoch_ns(max(time)) AS VARCHAR) AS hi
  FROM ${src} WHERE series = ${q(series)}`);
const lo = BigInt(span.lo), hi = BigInt(span.hi);
const ts = ns => `CAST(make_timestamp(${ns / 1000n}) AS TIMESTAMPTZ)`;
const from = fromArg ? `CAST(${q(fromArg)} AS TIMESTAMPTZ)` : ts(lo + ((hi - lo) * 495n) / 1000n);
const to = toArg ? `CAST(${q(toArg)} AS TIMESTAMPTZ)` : ts(lo + ((hi - lo) * 505n) / 1000n);

// The groups are folded into one row so that the timing is DuckDB's query,
// not the transfer of millions of result rows into JavaScript.
const fold = sql => `SELECT count(*) AS groups, sum(a) AS sum_avg, max(m) AS max_max FROM (${sql})`;
const queries = {
  aggregate: fold(`SELECT series, time_bucket(INTERVAL 5 MINUTE, time) AS bucket, avg(value) AS a, max(value) AS m
              FROM ${src} GROUP BY ALL`),
  selective: fold(`SELECT series, time_bucket(INTERVAL 5 MINUTE, time) AS bucket, avg(value) AS a, max(value) AS m
              FROM ${src} WHERE series = ${q(series)} AND time >= ${from} AND time < ${to} GROUP BY ALL`),
};
const out = { file: path, rows: Number(info.n), threads: String(threads), runs, series, from, to, results: {} };
for (const [name, sql] of Object.entries(queries)) {
  let groups = 0;
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = process.hrtime.bigint();
    const row = (await (await con.runAndReadAll(sql)).getRowObjects())[0];
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    groups = Number(row.groups);
    if (i > 0) times.push(ms); // the first run warms the caches
  }
  times.sort((a, b) => a - b);
  out.results[name] = { groups, median_ms: times[Math.floor(times.length / 2)], min_ms: times[0],
    rows_per_s: Math.round(out.rows / (times[Math.floor(times.length / 2)] / 1000)) };
}
console.log(JSON.stringify(out, null, 1));
