// A local @testrun/server in its own process, so its CPU time and its storage never count
// against the process being measured. Driven by the parent over IPC (see server.mjs).
import { createServer } from '@testrun/server';

const apiKey = process.env.BENCH_API_KEY;
// Which test files each results request carried, by Idempotency-Key (retries share one), so
// `acks` can say when each file's results were acknowledged.
const suitesByKey = new Map();
const recordSuites = ({ route, headers, body }) => {
  if (route !== 'submitResults' || !Array.isArray(body?.results)) return;
  suitesByKey.set(headers['idempotency-key'], new Set(body.results.map((r) => r.testSuite)));
};
// Every request of a figure is counted, however many: the default log keeps the latest 10,000.
// A service of the spec alone: no extension announced (the server's defaults announce them all).
const specOnly = process.env.BENCH_SPEC_ONLY === '1' && {
  failureDetails: false,
  completeRun: false,
  readRuns: false,
  quarantine: false,
  shardPlans: false,
  attachments: false,
  announceResultLimits: false,
};
const server = await createServer({
  ...specOnly,
  apiKeys: [apiKey],
  port: 0,
  faults: recordSuites,
  requestLogSize: 10_000_000,
});

/** Per test file (testSuite) of run `runId`: when the last 2xx answer that carried its results was sent. */
function acks(runId) {
  const ackedAt = {};
  for (const record of server.requests) {
    if (record.path !== `/api/v1/runs/${runId}/results`) continue;
    if (typeof record.status !== 'number' || record.status >= 300) continue;
    for (const suite of suitesByKey.get(record.idempotencyKey) ?? []) {
      ackedAt[suite] = Math.max(ackedAt[suite] ?? 0, record.answeredAt);
    }
  }
  return ackedAt;
}

/** Counts of what the server answered and stored; distinct result names only for `runIds`. */
async function stats(runIds = []) {
  const cpu = process.cpuUsage();
  const byStatus = {};
  const requestsByRun = {};
  let serverErrors = 0;
  let notOk = 0;
  let createRequests = 0;
  for (const record of server.requests) {
    byStatus[record.status] = (byStatus[record.status] ?? 0) + 1;
    if (typeof record.status !== 'number' || record.status < 200 || record.status >= 300) notOk += 1;
    if (typeof record.status === 'number' && record.status >= 500) serverErrors += 1;
    if (record.route === 'createRun') createRequests += 1;
    const match = /^\/api\/v1\/runs\/([^/]+)\/results$/.exec(record.path);
    if (match) requestsByRun[match[1]] = (requestsByRun[match[1]] ?? 0) + 1;
  }
  const runs = [];
  for (const run of await server.store.runs()) {
    const results = await server.store.results(run.id);
    const entry = { id: run.id, project: run.project, framework: run.framework, results: results.length };
    if (runIds.includes(run.id))
      entry.distinct = new Set(results.map((r) => `${r.testSuite}\u0000${r.testCase}`)).size;
    runs.push(entry);
  }
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    requests: server.requests.length,
    byStatus,
    serverErrors,
    notOk,
    createRequests,
    runs,
    requestsByRun,
  };
}

process.on('message', async (message) => {
  if (message.type === 'stats')
    process.send({ type: 'stats', id: message.id, stats: await stats(message.runIds) });
  if (message.type === 'acks') process.send({ type: 'acks', id: message.id, acks: acks(message.runId) });
  if (message.type === 'close') {
    await server.close();
    process.send({ type: 'closed', id: message.id }, () => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', url: server.url });
