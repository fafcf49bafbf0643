// `pnpm demo`: runs the example projects (Vitest, Jest, Playwright) against a local Test
// Run Reporting Service and shows what arrived. Needs no key and no setup: the server is started here, on a
// free port, with a key made up for this run. `--keep` leaves the server up to browse.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '@testrun/server';

const root = fileURLToPath(new URL('..', import.meta.url));
const examples = [
  { framework: 'vitest', dir: path.join(root, 'examples/vitest'), bin: 'vitest', args: ['run'] },
  { framework: 'jest', dir: path.join(root, 'examples/jest'), bin: 'jest', args: [] },
  // Its page tests use a Chromium already installed, or are skipped: no browser download.
  {
    framework: 'playwright',
    dir: path.join(root, 'examples/playwright'),
    packageName: '@playwright/test',
    bin: 'playwright',
    args: ['test'],
  },
];
const keep = process.argv.includes('--keep');

const apiKey = `demo-${randomBytes(16).toString('hex')}`;
const server = await createServer({ apiKeys: [apiKey] });
const env = {
  ...withoutTestrunVariables(process.env),
  TESTRUN_API_KEY: apiKey,
  TESTRUN_BASE_URL: server.url,
  TESTRUN_TAGS: 'demo',
  TESTRUN_SPOOL_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-demo-spool-')),
};

console.log(`testrun demo: a local service is listening on ${server.url}\n`);
const testExitCodes = {};
for (const example of examples) {
  console.log(`── ${example.framework}: ${path.relative(root, example.dir)} ──`);
  testExitCodes[example.framework] = await run(binOf(example), example.args, example.dir);
  console.log();
}

const runs = await readRuns();
const missing = examples.filter(({ framework }) => !runs.some((run) => run.framework === framework));
console.log('── what the service received ──');
for (const run of runs) {
  const counts = Object.entries(run.counts)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  console.log(`run ${run.id}`);
  console.log(`  project ${run.project}, framework ${run.framework}, tags [${run.tags.join(', ')}]`);
  console.log(`  ${run.total} results: ${counts} (tests exited ${testExitCodes[run.framework] ?? '?'})`);
}
console.log(
  keep
    ? `server: ${server.url} (runs at ${server.url}/; Ctrl-C to stop)`
    : `server: ${server.url} (stopped now; \`node scripts/demo.mjs --keep\` keeps it up to browse)`,
);

if (missing.length > 0) {
  console.error(
    `\ntestrun demo: no run arrived from ${missing.map((example) => example.framework).join(' and ')}.`,
  );
  console.error('Is everything built? `pnpm demo` builds first; `node scripts/demo.mjs` does not.');
  process.exitCode = 1;
}
if (!keep) await server.close();
try {
  fs.rmdirSync(env.TESTRUN_SPOOL_DIR);
} catch {
  // Not empty: something was spooled, and stays there to look at.
}

/** The runs as the service's read API returns them, oldest first. */
async function readRuns() {
  const response = await fetch(`${server.url}/api/v1/runs`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  if (!response.ok) throw new Error(`GET /api/v1/runs answered ${response.status}`);
  return (await response.json()).reverse();
}

/** The file a framework's `bin` points to, as the example project resolves it. */
function binOf({ dir, bin, packageName = bin }) {
  const require = createRequire(path.join(dir, 'package.json'));
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin];
  return path.join(path.dirname(manifestPath), relative);
}

function run(script, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}

function withoutTestrunVariables(parentEnv) {
  return Object.fromEntries(Object.entries(parentEnv).filter(([name]) => !name.startsWith('TESTRUN_')));
}
