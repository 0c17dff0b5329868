// Reads an Arrow IPC file or stream with apache-arrow, batch by batch, and
// prints JSON: row count, batch count, schema, and per series
// count/sum/avg/min/max of "value" and min/max of "time" (when present).
// Usage: node read_arrow.mjs <file.arrow | file.arrows>
import { createReadStream } from 'node:fs';
import { RecordBatchReader } from 'apache-arrow';

const path = process.argv[2];
if (!path) {
  console.error('usage: node read_arrow.mjs <file.arrow | file.arrows>');
  process.exit(2);
}
const reader = await RecordBatchReader.from(createReadStream(path));
await reader.open();
const out = { format: reader.isFile() ? 'file' : 'stream', rows: 0, batches: 0, schema: null, series: {} };
for await (const batch of reader) {
  if (!out.schema) {
    out.schema = batch.schema.fields.map(f => ({ name: f.name, type: String(f.type), nullable: f.nullable }));
  }
  out.batches++;
  out.rows += batch.numRows;
  const series = batch.getChild('series');
  const value = batch.getChild('value');
  const time = batch.getChild('time');
  if (!series) continue;
  for (let i = 0; i < batch.numRows; i++) {
    const s = series.get(i);
    const a = (out.series[s] ??= { rows: 0, count: 0, sum: 0, min: null, max: null, min_time: null, max_time: null });
    a.rows++;
    if (time) {
      // Nanosecond timestamps come back as milliseconds (a float); use the raw int64.
      const ns = BigInt.asIntN(64, time.data[0].values[time.data[0].offset + i] ?? 0n);
      if (a.min_time === null || ns < a.min_time) a.min_time = ns;
      if (a.max_time === null || ns > a.max_time) a.max_time = ns;
    }
    const v = value ? value.get(i) : null;
    if (v === null || v === undefined) continue;
    a.count++;
    a.sum += v;
    if (a.min === null || v < a.min) a.min = v;
    if (a.max === null || v > a.max) a.max = v;
  }
}
if (!out.schema) {
  out.schema = reader.schema.fields.map(f => ({ name: f.name, type: String(f.type), nullable: f.nullable }));
}
for (const a of Object.values(out.series)) {
  a.avg = a.count ? a.sum / a.count : null;
  a.min_time = a.min_time === null ? null : a.min_time.toString();
  a.max_time = a.max_time === null ? null : a.max_time.toString();
}
console.log(JSON.stringify(out));
