import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
for (const sql of process.argv.slice(2)) {
  try {
    const res = await con.runAndReadAll(sql);
    process.stdout.write(sql + ' => ' + JSON.stringify(res.getRows().map(r => r.map(v => (v === null ? null : String(v))))) + '\n');
  } catch (e) { process.stdout.write(sql + ' ERR ' + e.message.split('\n')[0] + '\n'); }
}
