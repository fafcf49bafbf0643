// `pnpm demo`: runs the example projects (Vitest, Jest, Playwright, Mocha, node:test, Jasmine) twice against a local Test
// Run Reporting Service and shows what arrived. Needs no key and no setup: the server is started here, on a
// free port, with a key made up for this run. In a terminal the server then stays up, so the links the
// reporters printed open, until Enter or Ctrl-C; in CI, or with its output piped, it stops and the demo ends.
// `--keep` and `--no-keep` choose either way. `--only vitest,jest` runs those examples alone.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '@testrun/server';

const root = fileURLToPath(new URL('..', import.meta.url));
// Playwright's output (.last-run.json) goes here, not into the example: Biome would check it
// there, and `pnpm test` after `pnpm demo` would fail on it.
const playwrightOutput = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-demo-playwright-'));
const allExamples = [
  { framework: 'vitest', dir: path.join(root, 'examples/vitest'), bin: 'vitest', args: ['run'] },
  { framework: 'jest', dir: path.join(root, 'examples/jest'), bin: 'jest', args: [] },
  // Its page tests use a Chromium already installed, or are skipped: no browser download.
  {
    framework: 'playwright',
    dir: path.join(root, 'examples/playwright'),
    packageName: '@playwright/test',
    bin: 'playwright',
    args: ['test', '--output', playwrightOutput],
  },
  { framework: 'mocha', dir: path.join(root, 'examples/mocha'), bin: 'mocha', args: [] },
  {
    framework: 'cucumber',
    dir: path.join(root, 'examples/cucumber'),
    packageName: '@cucumber/cucumber',
    bin: 'cucumber-js',
    args: [],
  },
  // Jasmine's exports map hides its package.json (binOf reads it): the bin is named outright.
  { framework: 'jasmine', dir: path.join(root, 'examples/jasmine'), script: jasmineBin(), args: [] },
  // node --test itself: the example's `test` script, the README's command line.
  {
    framework: 'node-test',
    dir: path.join(root, 'examples/node-test'),
    script: '--test',
    args: [
      '--test-reporter=@testrun/node-test',
      '--test-reporter-destination=stdout',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
    ],
  },
];
const examples = chosenExamples(process.argv.slice(2));
// The second round fails one Vitest example test on purpose (examples/vitest/src/cart.test.ts),
// so the server's flaky-tests page and that test's history have something to show. Said on
// screen before and after it, so that the red output reads as planned and not as a broken demo.
const onPurpose = {
  framework: 'vitest',
  test: 'Cart > keeps the cart when the page reloads',
};
const rounds = [
  { tag: 'round-1', env: {} },
  { tag: 'round-2', env: { EXAMPLE_FLAKY_FAIL: '1' }, failsOnPurpose: onPurpose },
];
const keep = keepsServerUp(process.argv.slice(2));

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
for (const round of rounds) {
  for (const example of examples) {
    console.log(`── ${round.tag}, ${example.framework}: ${path.relative(root, example.dir)} ──`);
    const failsOnPurpose = round.failsOnPurpose?.framework === example.framework;
    if (failsOnPurpose) {
      console.log(
        `On purpose: this round fails "${onPurpose.test}" (EXAMPLE_FLAKY_FAIL=1), so the flaky-tests page has a test to show. The red below is expected.`,
      );
    }
    const roundEnv = { ...env, ...round.env, TESTRUN_TAGS: `${env.TESTRUN_TAGS},${round.tag}` };
    testExitCodes[`${example.framework} ${round.tag}`] = await run(
      example.script ?? binOf(example),
      example.args,
      example.dir,
      roundEnv,
    );
    if (failsOnPurpose) console.log(`(That failure of "${onPurpose.test}" was on purpose.)`);
    console.log();
  }
}

const runs = await readRuns();
const missing = rounds.flatMap((round) =>
  examples
    .filter(
      ({ framework }) => !runs.some((run) => run.framework === framework && run.tags.includes(round.tag)),
    )
    .map(({ framework }) => `${framework} (${round.tag})`),
);
console.log('── what the service received ──');
for (const run of runs) {
  const counts = Object.entries(run.counts)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  // How the run ended, as the reporter that created it told the service (completeRun 'auto').
  console.log(`run ${run.id}: ${run.state}`);
  console.log(`  project ${run.project}, framework ${run.framework}, tags [${run.tags.join(', ')}]`);
  const round = rounds.find(({ tag }) => run.tags.includes(tag));
  const planned = round?.failsOnPurpose?.framework === run.framework ? ', one failure on purpose' : '';
  console.log(
    `  ${run.total} results: ${counts} (tests exited ${testExitCodes[`${run.framework} ${round?.tag}`] ?? '?'}${planned})`,
  );
}

if (missing.length > 0) {
  console.error(`\ntestrun demo: no run arrived from ${missing.join(', ')}.`);
  console.error('Is everything built? `pnpm demo` builds first; `node scripts/demo.mjs` does not.');
  process.exitCode = 1;
}
fs.rmSync(playwrightOutput, { recursive: true, force: true });
if (keep) {
  console.log(
    `\nThe server stays up, so the links above open: runs ${server.url}/, flaky tests ${server.url}/flaky`,
  );
  // Enter ends it quietly; Ctrl-C too, but pnpm then adds its own "Command failed" line.
  const enter = process.stdin.isTTY ? 'Enter or ' : '';
  console.log(`${enter}Ctrl-C stops it and ends the demo (\`pnpm demo --no-keep\` ends at once).`);
  // Reading the terminal keeps the process alive: stopping lets it go.
  const stopKept = () => {
    process.stdin.destroy();
    return stop();
  };
  if (process.stdin.isTTY) process.stdin.once('data', stopKept);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, stopKept);
} else {
  console.log(
    `\nserver: ${server.url} (stopped now, so the links above no longer open; \`pnpm demo --keep\` keeps it up)`,
  );
  await stop();
}

/** Closes the server and removes the spool folder, unless something was spooled: it stays there to look at. */
async function stop() {
  await server.close();
  try {
    fs.rmdirSync(env.TESTRUN_SPOOL_DIR);
  } catch {
    // Not empty.
  }
}

/**
 * Whether the server stays up after the runs. A person at a terminal gets links that open
 * (until Enter or Ctrl-C); CI and piped output get a demo that ends by itself, as `pnpm demo` is a
 * job that must finish there.
 */
function keepsServerUp(args) {
  if (args.includes('--keep')) return true;
  if (args.includes('--no-keep')) return false;
  const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !inCi;
}

/** The examples `--only a,b` names (every one without it); an unknown name ends the demo before it starts. */
function chosenExamples(args) {
  const at = args.indexOf('--only');
  if (at === -1) return allExamples;
  const names = (args[at + 1] ?? '').split(',').filter(Boolean);
  const known = allExamples.map(({ framework }) => framework);
  const unknown = names.filter((name) => !known.includes(name));
  if (names.length === 0 || unknown.length > 0) {
    console.error(`testrun demo: --only takes a list of ${known.join(', ')}; got "${args[at + 1] ?? ''}".`);
    fs.rmSync(playwrightOutput, { recursive: true, force: true });
    process.exit(2);
  }
  return allExamples.filter(({ framework }) => names.includes(framework));
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
function jasmineBin() {
  const main = createRequire(path.join(root, 'examples/jasmine/package.json')).resolve('jasmine');
  return path.join(path.dirname(main), '..', 'bin', 'jasmine.js');
}

function binOf({ dir, bin, packageName = bin }) {
  const require = createRequire(path.join(dir, 'package.json'));
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin];
  return path.join(path.dirname(manifestPath), relative);
}

function run(script, args, cwd, childEnv) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: childEnv, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}

function withoutTestrunVariables(parentEnv) {
  return Object.fromEntries(Object.entries(parentEnv).filter(([name]) => !name.startsWith('TESTRUN_')));
}
