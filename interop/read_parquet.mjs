// Reads a tsq Parquet export (a file, or a partitioned dataset directory with
// --partitioned) with DuckDB and prints JSON: row count, schema, and per
// series count/sum/avg/min/max of "value" and min/max of "time" (for
// files with tsq's series, time and value columns).
// Usage: node read_parquet.mjs <file.parquet | dir --partitioned | file.csv --csv | file.jsonl --jsonl>
import { DuckDBInstance } from '@duckdb/node-api';

const args = process.argv.slice(2);
const path = args.find(a => !a.startsWith('--'));
const partitioned = args.includes('--partitioned');
const text = args.includes('--csv') ? 'csv' : args.includes('--jsonl') ? 'jsonl' : null;
if (!path) {
  console.error('usage: node read_parquet.mjs <file.parquet | dir --partitioned>');
  process.exit(2);
}
const q = s => "'" + s.replaceAll("'", "''") + "'";
const src = text === 'csv' ? `read_csv(${q(path)}, header = true)`
  : text === 'jsonl' ? `read_json(${q(path)}, format = 'newline_delimited')`
  : partitioned ? `read_parquet(${q(path + '/**/*.parquet')}, hive_partitioning = true)`
  : `read_parquet(${q(path)})`;

const num = v => (typeof v === 'bigint' ? Number(v) : v);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rows = async sql => (await con.runAndReadAll(sql)).getRowObjects();

const out = {};
out.rows = num((await rows(`SELECT count(*) AS n FROM ${src}`))[0].n);
out.schema = (await rows(`DESCRIBE SELECT * FROM ${src}`)).map(r => ({ name: r.column_name, type: r.column_type }));
out.series = {};
const cols = new Map(out.schema.map(f => [f.name, f.type]));
const tsq = cols.has('series') && cols.has('value') && cols.get('time')?.startsWith('TIMESTAMP');
if (tsq) for (const r of await rows(`SELECT series, count(value) AS count, sum(value) AS sum, avg(value) AS avg,
    min(value) AS min, max(value) AS max, count(*) AS rows,
    CAST(epoch_ns(min(time)) AS VARCHAR) AS min_time, CAST(epoch_ns(max(time)) AS VARCHAR) AS max_time
    FROM ${src} GROUP BY series ORDER BY series`)) {
  out.series[r.series] = {
    rows: num(r.rows), count: num(r.count), sum: num(r.sum), avg: num(r.avg), min: num(r.min), max: num(r.max),
    min_time: r.min_time, max_time: r.max_time,
  };
}
if (partitioned && tsq) {
  out.partitions = {};
  for (const r of await rows(`SELECT stream, CAST(date AS VARCHAR) AS date, count(*) AS n,
      bool_and(CAST(time AT TIME ZONE 'UTC' AS DATE) = CAST(date AS DATE)) AS ok FROM ${src} GROUP BY ALL ORDER BY ALL`)) {
    out.partitions[`${r.stream}/${r.date}`] = { rows: num(r.n), dates_match: r.ok };
  }
}
console.log(JSON.stringify(out));
