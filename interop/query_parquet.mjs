// Runs one SQL query with DuckDB over a tsq Parquet export, the view nab
// standing for the file, and prints its rows as JSON arrays of strings.
// The session's time zone is UTC.
// Usage: node query_parquet.mjs <file.parquet> <sql>
import { DuckDBInstance } from '@duckdb/node-api';

const [path, sql] = process.argv.slice(2);
if (!path || !sql) {
  console.error('usage: node query_parquet.mjs <file.parquet> <sql>');
  process.exit(2);
}
const q = s => "'" + s.replaceAll("'", "''") + "'";
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`SET TimeZone = 'UTC'`);
await con.run(`CREATE VIEW nab AS SELECT * FROM read_parquet(${q(path)})`);
const res = await con.runAndReadAll(sql);
console.log(JSON.stringify(res.getRows().map(r => r.map(v => String(v)))));
