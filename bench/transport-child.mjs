// Figure 7b, the measured process: what the reporter's HTTP traffic of a small run (create
// the run, send one batch) costs in a fresh process, through core's HttpClient (openService), by the
// transport it picks: `direct` (node:http, no proxy set), `proxy` (undici, through the
// forward proxy BENCH_PROXY names), or `none` (no request: the process alone). It then
// idles 1 s, as a framework's process does after its reporter is done: undici's llhttp
// WebAssembly is optimized on background threads after the fact. Prints the CPU ms at exit.
const transport = process.argv[2];
const core = await import(new URL('../packages/core/dist/index.js', import.meta.url).href);

async function post(env) {
  const baseUrl = env.HTTP_PROXY
    ? process.env.BENCH_URL.replace('127.0.0.1', 'localhost')
    : process.env.BENCH_URL;
  const service = core.openService({
    baseUrl,
    apiKey: process.env.BENCH_API_KEY,
    userAgent: 'bench',
    env,
    maxRetries: 0,
    requestTimeout: 10_000,
  });
  const { http } = service;
  const options = () => ({
    idempotencyKey: crypto.randomUUID(),
    timeoutMs: 10_000,
    signal: new AbortController().signal,
  });
  const created = await http.send(
    '/api/v1/runs',
    JSON.stringify({ project: 'bench', framework: 'vitest', tags: [] }),
    options(),
  );
  const { id } = JSON.parse(created.body);
  await http.send(
    `/api/v1/runs/${id}/results`,
    JSON.stringify({ results: [{ testSuite: 'a.test.js', testCase: 'one', status: 'passed', duration: 1 }] }),
    options(),
  );
  await service.close();
}

if (transport === 'direct') await post({});
if (transport === 'proxy') await post({ HTTP_PROXY: process.env.BENCH_PROXY });
await new Promise((resolve) => setTimeout(resolve, 1000));
const { user, system } = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ transport, cpuMs: (user + system) / 1000 })}\n`);
