// The measurement behind the proposal in bench/README.md ("What is left: undici"): the same
// reporter with its transport swapped for node:http when no proxy is set, as an install
// would have it, measured by figures 1 and 7. Nothing in packages/ changes: a copy of the
// built packages is made under bench/.generated/node-http/node_modules, with core's
// `loadUndiciParts()` replaced by a node:http stand-in of the same shape (the direct case
// only; the copy refuses a proxy). `node bench/node-http-experiment.mjs [suiteRounds] [fixedRounds]`
// after `pnpm build`; prints the figures, writes nothing else.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as fixed from './fixed-cost.mjs';
import { generatedDir } from './lib/generate-suite.mjs';
import { ms, pct } from './lib/stats.mjs';
import * as suite from './suite-overhead.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const modules = path.join(generatedDir, 'node-http', 'node_modules');

const NODE_HTTP_PARTS = `async function loadUndiciParts() {
  // bench/node-http-experiment.mjs: node:http in undici's place, direct connections only.
  const http = await import('node:http');
  const https = await import('node:https');
  class Agent {
    constructor(options) {
      this.http = new http.Agent({ keepAlive: true, maxSockets: 16 });
      this.https = new https.Agent({ keepAlive: true, maxSockets: 16, ...(options.requestTls ?? {}) });
    }
    async destroy() {
      this.http.destroy();
      this.https.destroy();
    }
  }
  const request = (dispatcher, url, options) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const agent = secure ? dispatcher.https : dispatcher.http;
      const req = (secure ? https : http).request(
        target,
        { method: options.method, headers: options.headers, agent, signal: options.signal },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ statusCode: res.statusCode, headers: res.headers, body: { text: async () => text } });
          });
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  return {
    Agent,
    buildConnector: () => () => {},
    EnvHttpProxyAgent: () => {
      throw new Error('the node:http experiment does not go through proxies');
    },
    request,
  };
}`;

function buildCopy() {
  fs.rmSync(modules, { recursive: true, force: true });
  for (const pkg of ['core', 'vitest', 'jest']) {
    const target = path.join(modules, '@testrun', pkg);
    fs.mkdirSync(target, { recursive: true });
    fs.copyFileSync(path.join(root, 'packages', pkg, 'package.json'), path.join(target, 'package.json'));
    fs.cpSync(path.join(root, 'packages', pkg, 'dist'), path.join(target, 'dist'), { recursive: true });
  }
  for (const dep of ['undici', 'env-ci']) {
    fs.symlinkSync(
      fs.realpathSync(path.join(root, 'packages/core/node_modules', dep)),
      path.join(modules, dep),
    );
  }
  const corePath = path.join(modules, '@testrun/core/dist/index.js');
  const code = fs.readFileSync(corePath, 'utf8');
  const start = code.indexOf('async function loadUndiciParts() {');
  if (start === -1) throw new Error('loadUndiciParts not found in the bundled core');
  let depth = 0;
  let end = -1;
  for (let i = code.indexOf('{', start); i < code.length && end === -1; i += 1) {
    if (code[i] === '{') depth += 1;
    if (code[i] === '}' && --depth === 0) end = i + 1;
  }
  fs.writeFileSync(corePath, code.slice(0, start) + NODE_HTTP_PARTS + code.slice(end));
  // Vitest reaches the copy through a package of its own in the same node_modules (fixed-cost.mjs says why).
  const shim = path.join(modules, 'testrun-node-http-reporter');
  fs.mkdirSync(shim);
  fs.writeFileSync(
    path.join(shim, 'package.json'),
    '{ "name": "testrun-node-http-reporter", "private": true, "type": "module", "main": "index.js" }\n',
  );
  fs.writeFileSync(path.join(shim, 'index.js'), "export { default } from '@testrun/vitest';\n");
  return {
    vitest: path.join(shim, 'index.js'),
    jest: path.join(modules, '@testrun/jest/dist/index.js'),
  };
}

const suiteRounds = Number(process.argv[2] ?? 9);
const fixedRounds = Number(process.argv[3] ?? 15);
const reporters = buildCopy();
const lines = [];
for (const framework of ['vitest', 'jest']) {
  process.env.BENCH_TESTRUN_REPORTER = reporters[framework];
  const outcome = await suite.run({ rounds: suiteRounds, frameworks: [framework] });
  const ours = outcome.rows.find((r) => r.mode === 'testrun');
  const junit = outcome.rows.find((r) => r.mode === 'junit');
  lines.push(
    `${framework}, 5,000 tests, ${ours.runs} paired rounds: wall ${pct(ours.pairedRatio - 1)} ±${(ours.pairedNoise * 100).toFixed(1)}%, ` +
      `CPU ${pct(ours.pairedCpuRatio - 1)} ±${(ours.pairedCpuNoise * 100).toFixed(1)}% (JUnit: wall ${pct(junit.pairedRatio - 1)}, CPU ${pct(junit.pairedCpuRatio - 1)})` +
      (outcome.problems.length ? `; problems: ${outcome.problems.join(' | ')}` : ''),
  );
}
delete process.env.BENCH_TESTRUN_REPORTER;
process.env.BENCH_PACKAGES = modules;
const cost = await fixed.run({ rounds: fixedRounds });
for (const r of cost.rows) {
  lines.push(
    `${r.framework} fixed cost, ${r.label}: ${ms(r.deltaMs)} ±${ms(r.noiseMs)} (${r.rounds} paired rounds)`,
  );
}
lines.push(...cost.problems.map((p) => `problem: ${p}`));
console.log(`\nnode:http in undici's place (direct connections):\n${lines.map((l) => `- ${l}`).join('\n')}`);
