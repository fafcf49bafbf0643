// Figure 7b, the measured process: what the reporter's HTTP traffic of a small run (create
// the run, send one batch) costs in a fresh process, by transport: `undici` (the parts core
// loads, see packages/core/src/undici-parts.ts), `node-http` (node:http with a keep-alive
// agent), or `none` (no request: the process alone). It then idles 1 s, as a framework's
// process does after its reporter is done, since undici's llhttp WebAssembly is optimized on
// background threads after the fact. Prints the process's CPU ms at exit.
import { createRequire } from 'node:module';

const transport = process.argv[2];
const base = process.env.BENCH_URL;
const headers = { authorization: `Bearer ${process.env.BENCH_API_KEY}`, 'content-type': 'application/json' };
// undici as core resolves it.
const require = createRequire(new URL('../packages/core/package.json', import.meta.url));

async function postWithUndici(requests) {
  const Agent = require('undici/lib/dispatcher/agent.js');
  const request = require('undici/lib/api/api-request.js');
  const agent = new Agent();
  const origin = new URL(base).origin;
  const answers = [];
  for (const [path, body] of requests()) {
    const response = await request.call(agent, {
      origin,
      path: path(answers),
      method: 'POST',
      headers,
      body,
    });
    answers.push(await response.body.json());
  }
  await agent.close();
}

async function postWithNodeHttp(requests) {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true });
  const answers = [];
  for (const [path, body] of requests()) {
    answers.push(
      await new Promise((resolve, reject) => {
        const req = http.request(new URL(path(answers), base), { method: 'POST', headers, agent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve(JSON.parse(text)));
        });
        req.on('error', reject);
        req.end(body);
      }),
    );
  }
  agent.destroy();
}

function* requests() {
  yield [() => '/api/v1/runs', JSON.stringify({ project: 'bench', framework: 'vitest', tags: [] })];
  yield [
    ([run]) => `/api/v1/runs/${run.id}/results`,
    JSON.stringify({ results: [{ testSuite: 'a.test.js', testCase: 'one', status: 'passed', duration: 1 }] }),
  ];
}

if (transport === 'undici') await postWithUndici(requests);
if (transport === 'node-http') await postWithNodeHttp(requests);
await new Promise((resolve) => setTimeout(resolve, 1000));
const { user, system } = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ transport, cpuMs: (user + system) / 1000 })}\n`);
