// Times DuckDB on the joins of tsq's BenchmarkQueryJoin over a Parquet
// export of the benchmark store (SELECT seq, time, series, value FROM
// nab), warm: one untimed run first, then the median of -n runs; threads
// as DuckDB sets them (2 on the development machine):
//   asof: every nyc_taxi sample with the latest ambient_temperature sample
//         at or before it: count and avg of the matched values;
//   mean: the samples of 2014 above their series' mean (over the whole
//         file), counted per series.
// Usage: node bench_join.mjs <file.parquet> [runs]
import { DuckDBInstance } from '@duckdb/node-api';

const [path, runsArg] = process.argv.slice(2);
if (!path) {
  console.error('usage: node bench_join.mjs <file.parquet> [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? 5);
const q = s => "'" + s.replaceAll("'", "''") + "'";
const src = `read_parquet(${q(path)})`;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`SET TimeZone = 'UTC'`);
const threads = (await (await con.runAndReadAll(`SELECT current_setting('threads') AS t`)).getRowObjects())[0].t;
const queries = {
  asof: `SELECT count(*) AS n, avg(b.value) AS v
    FROM (SELECT time, value FROM ${src} WHERE series = 'nab/realKnownCause/nyc_taxi') AS a
    ASOF JOIN (SELECT time, value FROM ${src} WHERE series = 'nab/realKnownCause/ambient_temperature_system_failure') AS b
    ON a.time >= b.time`,
  mean: `SELECT count(*) AS n, sum(c) AS v FROM (SELECT a.series, count(*) AS c
    FROM ${src} AS a JOIN (SELECT series, avg(value) AS m FROM ${src} GROUP BY series) AS b USING (series)
    WHERE a.value > b.m AND a.time >= TIMESTAMPTZ '2014-01-01 00:00:00+00' AND a.time < TIMESTAMPTZ '2015-01-01 00:00:00+00'
    GROUP BY a.series)`,
};
const out = { file: path, threads: String(threads), runs, results: {} };
for (const [name, sql] of Object.entries(queries)) {
  const times = [];
  let row;
  for (let i = 0; i <= runs; i++) {
    const t0 = process.hrtime.bigint();
    row = (await (await con.runAndReadAll(sql)).getRowObjects())[0];
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (i > 0) times.push(ms); // the first run warms the caches
  }
  times.sort((a, b) => a - b);
  out.results[name] = { n: String(row.n), v: String(row.v), median_ms: times[Math.floor(times.length / 2)], min_ms: times[0] };
}
console.log(JSON.stringify(out, null, 1));
