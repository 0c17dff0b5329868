import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
for (const sql of process.argv.slice(2)) {
  try {
    const r = await con.runAndReadAll(sql);
    process.stdout.write(JSON.stringify(r.columnNames()) + '\n');
    for (const row of r.getRowsJson()) process.stdout.write(JSON.stringify(row) + '\n');
  } catch (e) { process.stdout.write('ERR ' + e.message + '\n'); }
}
