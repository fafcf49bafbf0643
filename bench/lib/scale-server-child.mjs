// A @testrun/server on a data folder (`BENCH_DATA`) or a PostgreSQL URL (`BENCH_DATABASE`),
// in its own process so its memory (RSS) and CPU are its own. Driven over IPC by
// server-scale.mjs: `ready` carries the URL and how long createServer took.
import { performance } from 'node:perf_hooks';
import { createServer } from '@testrun/server';

const started = performance.now();
const server = await createServer({
  apiKeys: [process.env.BENCH_API_KEY],
  port: 0,
  ...(process.env.BENCH_DATABASE
    ? { database: process.env.BENCH_DATABASE }
    : { data: process.env.BENCH_DATA }),
});
const startMs = performance.now() - started;

process.on('message', async (message) => {
  if (message.type === 'close') {
    await server.close();
    process.send({ type: 'closed' }, () => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', url: server.url, startMs });
