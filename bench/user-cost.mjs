// Figure 7c: what a run costs as a user pays it. The packed tarballs, installed by npm into a
// plain project per runner (no workspace links), a suite of one file with three tests, run
// four ways each round: without a reporter of ours ("off"), with ours against a service that
// announces no extension, as the spec shows one ("bare"), with ours against a service that
// announces them all, as `testrun serve` does ("serve"), and with the runner's usual JUnit
// reporter ("junit", the anchor users compare us with). The order is reversed every other
// round (ABBA): the first run of a pair pays for caches the second finds warm, so a fixed order
// would measure the order. The figures are CPU of the whole process tree and wall time, both to
// the process's very end (bench/lib/rusage.py, as /usr/bin/time counts them), as the median of
// the per-round differences from "off". Outside CI and with GitHub Actions' variables.
// Before the runners, the floor: Node's HTTP client alone sending the same requests
// (lib/http-floor.cjs) over `node -e 0`, measured the same way; and beside it the same requests
// written by hand over `node:net` (lib/net-floor.cjs): what not using Node's HTTP client saves.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENVIRONMENTS } from './fixed-cost.mjs';
import { startServer } from './lib/server.mjs';
import { median } from './lib/stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rusage = fileURLToPath(new URL('./lib/rusage.py', import.meta.url));
const floorScript = fileURLToPath(new URL('./lib/http-floor.cjs', import.meta.url));
const netFloorScript = fileURLToPath(new URL('./lib/net-floor.cjs', import.meta.url));
// Outside the monorepo: a project inside it would find our pnpm-workspace.yaml as its workspace.
export const workDir = path.join(os.tmpdir(), 'testrun-bench-user-cost');
const NPM_CACHE = path.join(os.tmpdir(), 'testrun-npm-cache');

export const RUNNERS = ['vitest', 'jest', 'playwright', 'mocha', 'node-test'];
const VARIANTS = ['off', 'bare', 'serve', 'junit'];
/** The variants that run our reporter, and the service each reports to. */
export const OURS = { bare: 'bare', serve: 'serve' };

const THREE_TESTS = (imports, it = 'it') => `${imports}
describe('math', () => {
  ${it}('adds', () => { if (1 + 1 !== 2) throw new Error('no'); });
  ${it}('subtracts', () => { if (2 - 1 !== 1) throw new Error('no'); });
  ${it}('multiplies', () => { if (2 * 2 !== 4) throw new Error('no'); });
});
`;

/** Each runner's project: its files, its extra dependencies, and its command for a variant. */
export const PROJECTS = {
  vitest: {
    dependencies: { vitest: '^4' },
    files: {
      'math.test.mjs': THREE_TESTS("import { describe, it } from 'vitest';"),
      'vitest.config.mjs': `const variant = process.env.BENCH_VARIANT;
export default {
  test: {
    include: ['*.test.mjs'],
    reporters: ['bare', 'serve'].includes(variant) ? ['default', '@testrun/vitest'] : variant === 'junit' ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'junit.xml' },
  },
};
`,
    },
    command: () => ['node_modules/.bin/vitest', 'run'],
  },
  jest: {
    dependencies: { jest: '^30', 'jest-junit': '^17' },
    files: {
      'math.test.js': THREE_TESTS(''),
      'jest.config.js': `const variant = process.env.BENCH_VARIANT;
module.exports = {
  testEnvironment: 'node',
  reporters: ['bare', 'serve'].includes(variant) ? ['default', '@testrun/jest'] : variant === 'junit' ? ['default', 'jest-junit'] : ['default'],
};
`,
    },
    command: () => ['node_modules/.bin/jest', '-i'],
  },
  playwright: {
    dependencies: { '@playwright/test': '^1.65' },
    files: {
      'tests/math.spec.mjs': THREE_TESTS(
        "import { test } from '@playwright/test';\nconst { describe } = test;",
        'test',
      ),
      'playwright.config.mjs': `const variant = process.env.BENCH_VARIANT;
export default {
  testDir: './tests',
  workers: 1,
  reporter: ['bare', 'serve'].includes(variant) ? [['list'], ['@testrun/playwright']] : variant === 'junit' ? [['list'], ['junit', { outputFile: 'junit.xml' }]] : [['list']],
};
`,
    },
    command: () => ['node_modules/.bin/playwright', 'test'],
  },
  mocha: {
    dependencies: { mocha: '^11', 'mocha-junit-reporter': '^2' },
    files: { 'test/math.test.js': THREE_TESTS('') },
    // Ours prints Mocha's spec reporter too; mocha-junit-reporter prints nothing.
    command: (variant) => [
      'node_modules/.bin/mocha',
      '--reporter',
      { off: 'spec', bare: '@testrun/mocha', serve: '@testrun/mocha', junit: 'mocha-junit-reporter' }[
        variant
      ],
    ],
  },
  'node-test': {
    dependencies: {},
    files: { 'test/math.test.js': THREE_TESTS("const { describe, it } = require('node:test');") },
    command: (variant) => [
      process.execPath,
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      ...(variant in OURS
        ? ['--test-reporter=@testrun/node-test', '--test-reporter-destination=stdout']
        : []),
      ...(variant === 'junit' ? ['--test-reporter=junit', '--test-reporter-destination=junit.xml'] : []),
      'test/math.test.js',
    ],
  },
};

/** Packs the packages as `pnpm release` would and installs them with npm into one project per runner. */
export function prepare(runners, log) {
  const tarballs = path.join(workDir, 'tarballs');
  fs.rmSync(tarballs, { recursive: true, force: true });
  fs.mkdirSync(tarballs, { recursive: true });
  const packages = ['core', ...runners];
  const files = {};
  for (const name of packages) {
    const out = execFileSync('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: path.join(root, 'packages', name),
      encoding: 'utf8',
    });
    files[name] = out.trim().split('\n').pop();
  }
  const dirs = {};
  for (const runner of runners) {
    const dir = path.join(workDir, runner);
    dirs[runner] = dir;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const project = PROJECTS[runner];
    const manifest = {
      name: `testrun-user-cost-${runner}`,
      private: true,
      dependencies: {
        '@testrun/core': `file:${files.core}`,
        [`@testrun/${runner}`]: `file:${files[runner]}`,
        ...project.dependencies,
      },
    };
    fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const [file, text] of Object.entries(project.files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    log(`  npm install in ${path.relative(root, dir)}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: dir,
      env: { ...process.env, npm_config_cache: NPM_CACHE, npm_config_update_notifier: 'false' },
      stdio: 'ignore',
    });
  }
  return dirs;
}

/** One run of `[command, ...args]` as `variant`: its process tree's CPU ms and wall ms, exit code and output. */
function runOnce([command, ...args], dir, variant, env) {
  const out = path.join(os.tmpdir(), `testrun-bench-rusage-${process.pid}.json`);
  fs.rmSync(out, { force: true });
  return new Promise((resolve) => {
    const child = spawn('python3', [rusage, command, ...args], {
      cwd: dir,
      env: { ...env, BENCH_VARIANT: variant, RUSAGE_OUT: out },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', () => {
      let measured = { cpuMs: NaN, wallMs: NaN, code: NaN };
      try {
        measured = JSON.parse(fs.readFileSync(out, 'utf8'));
      } catch {}
      resolve({ ...measured, output });
    });
  });
}

/**
 * `rounds` ABBA rounds of `variants` (the first is the one the others are measured against):
 * per variant, the median of the per-round differences from the first, ± their median absolute
 * deviation, and the first's own medians. A run that fails or, for ours, delivers nothing is
 * left out and named in `problems`.
 */
async function measurePairs({ label, variants, command, dir, envFor, delivered, rounds, problems }) {
  // Warm-up, not counted: caches of the OS, Jest and Vite.
  for (const variant of variants) await runOnce(command(variant), dir, variant, envFor(variant));
  const measured = Object.fromEntries(variants.map((variant) => [variant, []]));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const outcome = await runOnce(command(variant), dir, variant, envFor(variant));
      if (outcome.code !== 0 || !Number.isFinite(outcome.cpuMs) || !delivered(variant, outcome.output)) {
        problems.push(
          `user cost ${label} ${variant} round ${round + 1}: exit ${outcome.code}; ${outcome.output.slice(-300).trim()}`,
        );
        measured[variant][round] = { cpuMs: NaN, wallMs: NaN };
      } else measured[variant][round] = outcome;
    }
  }
  const [base] = variants;
  const difference = (variant, key) => {
    const deltas = measured[variant]
      .map((outcome, i) => outcome[key] - measured[base][i][key])
      .filter(Number.isFinite);
    const value = median(deltas);
    return { value, noise: median(deltas.map((d) => Math.abs(d - value))) };
  };
  return {
    baseCpuMs: median(measured[base].map((o) => o.cpuMs).filter(Number.isFinite)),
    baseWallMs: median(measured[base].map((o) => o.wallMs).filter(Number.isFinite)),
    ...Object.fromEntries(
      variants
        .slice(1)
        .map((variant) => [
          variant,
          { cpu: difference(variant, 'cpuMs'), wall: difference(variant, 'wallMs') },
        ]),
    ),
  };
}

/** A difference with its sign, as `+12 ±3` or `-6 ±40`. */
const figure = ({ value, noise }) => `${value < 0 ? '' : '+'}${Math.round(value)} ±${Math.round(noise)}`;

export async function run({
  rounds = 16,
  log = console.log,
  runners = RUNNERS,
  environments = ['local', 'github'],
} = {}) {
  const dirs = prepare(runners, log);
  const servers = {
    bare: await startServer({ specOnly: true }),
    serve: await startServer(),
  };
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-user-'));
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CI|GITHUB_.*|TESTRUN_.*|npm_.*|pnpm_.*)$/i.test(name)),
  );
  const envFor = (environment) => (variant) => {
    const server = servers[OURS[variant] ?? 'bare'];
    return {
      ...baseEnv,
      ...ENVIRONMENTS[environment].env,
      TESTRUN_API_KEY: server.apiKey,
      TESTRUN_BASE_URL: server.url,
      TESTRUN_SPOOL_DIR: spoolDir,
    };
  };
  const rows = [];
  const problems = [];
  try {
    // The floor: Node's HTTP client alone sending a run's requests, over `node -e 0`.
    const floorPairs = await measurePairs({
      label: 'floor',
      variants: ['off', 'bare', 'serve', 'net'],
      command: (variant) =>
        ({
          off: [process.execPath, '-e', '0'],
          bare: [process.execPath, floorScript],
          serve: [process.execPath, floorScript],
          net: [process.execPath, netFloorScript],
        })[variant],
      dir: workDir,
      envFor: envFor('local'),
      delivered: (variant, output) => variant === 'off' || /floor: 3 results → run /.test(output),
      rounds,
      problems,
    });
    const floor = {
      offCpuMs: floorPairs.baseCpuMs,
      bare: floorPairs.bare,
      serve: floorPairs.serve,
      net: floorPairs.net,
    };
    log(
      `  floor (node:http alone, the same requests): node -e 0 ${Math.round(floor.offCpuMs)} ms CPU; ${figure(floor.bare.cpu)} CPU, ${figure(floor.bare.wall)} wall (bare service), ${figure(floor.serve.cpu)} CPU, ${figure(floor.serve.wall)} wall (testrun serve); by hand over node:net ${figure(floor.net.cpu)} CPU, ${figure(floor.net.wall)} wall (bare service)`,
    );
    for (const runner of runners) {
      for (const environment of environments) {
        const pairs = await measurePairs({
          label: `${runner} ${environment}`,
          variants: VARIANTS,
          command: (variant) => PROJECTS[runner].command(variant),
          dir: dirs[runner],
          envFor: envFor(environment),
          delivered: (variant, output) => !(variant in OURS) || /testrun: 3 results → run /.test(output),
          rounds,
          problems,
        });
        const row = {
          runner,
          environment,
          offCpuMs: pairs.baseCpuMs,
          offWallMs: pairs.baseWallMs,
          bare: pairs.bare,
          serve: pairs.serve,
          junit: pairs.junit,
        };
        rows.push(row);
        log(
          `  ${runner} ${environment}: off ${Math.round(row.offCpuMs)} ms CPU / ${Math.round(row.offWallMs)} ms wall; testrun ${figure(row.bare.cpu)} CPU, ${figure(row.bare.wall)} wall (bare service), ${figure(row.serve.cpu)} CPU, ${figure(row.serve.wall)} wall (testrun serve); junit ${figure(row.junit.cpu)} CPU, ${figure(row.junit.wall)} wall`,
        );
      }
    }
    return { rows, floor, problems, rounds };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv[2] ?? 16);
  const runners = process.argv[3] ? process.argv[3].split(',') : RUNNERS;
  const { problems } = await run({ rounds, runners });
  for (const problem of problems) console.log(problem);
}
