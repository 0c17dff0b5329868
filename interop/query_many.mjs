// Runs SQL queries with DuckDB over a tsq Parquet export, the view nab
// standing for the file: the queries come as a JSON array of strings on
// stdin, and each gives {"rows": [[...], ...]} (every value as a string)
// or {"error": "..."}, printed as one JSON array. The session's time zone
// is UTC.
// Usage: node query_many.mjs <file.parquet> < queries.json
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

const [path] = process.argv.slice(2);
if (!path) {
  console.error('usage: node query_many.mjs <file.parquet> < queries.json');
  process.exit(2);
}
const queries = JSON.parse(readFileSync(0, 'utf8'));
const q = s => "'" + s.replaceAll("'", "''") + "'";
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`SET TimeZone = 'UTC'`);
await con.run(`SET threads = 2`);
await con.run(`CREATE TABLE nab AS SELECT * FROM read_parquet(${q(path)})`);
const out = [];
for (const sql of queries) {
  try {
    const res = await con.runAndReadAll(sql);
    out.push({ rows: res.getRows().map(r => r.map(v => (v === null ? null : String(v)))) });
  } catch (e) {
    out.push({ error: String(e.message ?? e) });
  }
}
console.log(JSON.stringify(out));
