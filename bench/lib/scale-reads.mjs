// Figure 10's page and read-API timings alone, on a database already loaded (server-scale.mjs
// after its ingest, or scale-fill.mjs): a server in its own process, each call fetched 3 times
// to warm up and 15 times timed, exactly as the figure does. For comparing a change to the
// page queries back to back on one load.
//
//   node bench/lib/scale-reads.mjs --database postgres://… [--runs 100000]
//   node bench/lib/scale-reads.mjs --data DIR [--runs 100000]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { readEverything, startChild } from '../server-scale.mjs';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    data: { type: 'string' },
    runs: { type: 'string', default: '100000' },
  },
});
const target = values.database ? { BENCH_DATABASE: values.database } : { BENCH_DATA: values.data };
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join('/')}`,
);
const server = await startChild(target);
const problems = [];
try {
  await readEverything(server, Number(values.runs), problems, console.log);
} finally {
  await server.close();
}
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join('/')}`,
);
if (problems.length > 0) console.log('problems:', problems);
