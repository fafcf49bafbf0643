// Figure 7: the fixed cost of a run, CPU time of the framework's main process (where the
// reporter lives) with the reporter on vs off, on a one-test project, so nothing but the
// reporter's own start, create-run, one results request and end differs. Three environments:
// outside CI, in CI on a provider core reads itself (GitHub Actions variables), and in CI on
// a provider only env-ci knows (`CI=true` and nothing else). Rounds alternate off/on in each
// environment, so a round's pair shares the machine's state; the figure is the median of the
// per-round differences and its noise the median absolute deviation of those differences.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startForwardProxy } from './lib/forward-proxy.mjs';
import { generatedDir } from './lib/generate-suite.mjs';
import { lastJsonLine, runNodeChild } from './lib/node-child.mjs';
import { startServer } from './lib/server.mjs';
import { median } from './lib/stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const probe = fileURLToPath(new URL('./lib/cpu-probe.cjs', import.meta.url));

/** Variables by which a CI provider is recognised (core's own table and env-ci's). */
const CI_VARIABLE =
  /^(CI|CI_.*|CONTINUOUS_INTEGRATION|BUILD_.*|RUN_ID|GITHUB_.*|GITLAB_.*|CIRCLE.*|TRAVIS.*|BUILDKITE.*|JENKINS_.*|HUDSON_.*|TEAMCITY_.*|BITBUCKET_.*|BITRISE.*|DRONE.*|APPVEYOR.*|CODEBUILD_.*|TF_BUILD|SYSTEM_.*|SEMAPHORE.*|CIRRUS.*|NETLIFY|VERCEL.*|WOODPECKER.*|BAMBOO_.*|TESTRUN_.*)$/;

export const ENVIRONMENTS = {
  local: { label: 'outside CI', env: {} },
  github: {
    label: 'in CI, GitHub Actions (read from its variables)',
    env: {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_RUN_ID: '12345',
    },
  },
  generic: { label: 'in CI, a provider only env-ci knows (CI=true)', env: { CI: 'true' } },
};

/**
 * One-test projects for Vitest and Jest, with @testrun/core and the adapter copied into the
 * project's node_modules as an install puts them: a workspace link would make Vite transform
 * the reporter (bench/README.md). Their dependencies link to the workspace's installed ones.
 */
function generateProjects() {
  const dirs = {};
  for (const framework of ['vitest', 'jest']) {
    const dir = path.join(generatedDir, `fixed-${framework}`);
    dirs[framework] = dir;
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, 'node_modules', '@testrun'), { recursive: true });
    for (const pkg of ['core', framework]) {
      // BENCH_PACKAGES: another build's node_modules to copy from (node-http-experiment.mjs).
      const source = process.env.BENCH_PACKAGES
        ? path.join(process.env.BENCH_PACKAGES, '@testrun', pkg)
        : path.join(root, 'packages', pkg);
      const target = path.join(dir, 'node_modules', '@testrun', pkg);
      fs.mkdirSync(target);
      fs.copyFileSync(path.join(source, 'package.json'), path.join(target, 'package.json'));
      fs.cpSync(path.join(source, 'dist'), path.join(target, 'dist'), { recursive: true });
    }
    for (const dep of ['undici', 'env-ci']) {
      fs.symlinkSync(
        fs.realpathSync(path.join(root, 'packages/core/node_modules', dep)),
        path.join(dir, 'node_modules', dep),
      );
    }
    const esm = framework === 'vitest';
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      `${JSON.stringify({ name: `testrun-bench-fixed-${framework}`, private: true, ...(esm ? { type: 'module' } : {}) }, null, 2)}\n`,
    );
    if (esm) {
      // Named directly, '@testrun/vitest' resolved to the workspace link in the monorepo's root
      // node_modules (a CPU profile showed packages/vitest/dist, transformed by Vite), not to
      // the copy. A one-line package found only here, whose import Node resolves natively
      // from where it lies, reaches the copy.
      const shim = path.join(dir, 'node_modules', 'testrun-bench-reporter');
      fs.mkdirSync(shim);
      fs.writeFileSync(
        path.join(shim, 'package.json'),
        '{ "name": "testrun-bench-reporter", "private": true, "type": "module", "main": "index.js" }\n',
      );
      fs.writeFileSync(path.join(shim, 'index.js'), "export { default } from '@testrun/vitest';\n");
      fs.writeFileSync(
        path.join(dir, 'one.test.js'),
        "import { expect, test } from 'vitest';\n\ntest('one', () => expect(1).toBe(1));\n",
      );
      fs.writeFileSync(
        path.join(dir, 'vitest.config.mjs'),
        "export default { test: { include: ['*.test.js'], reporters: process.env.BENCH_MODE === 'on' ? ['dot', 'testrun-bench-reporter'] : ['dot'] } };\n",
      );
    } else {
      fs.writeFileSync(path.join(dir, 'one.test.js'), "test('one', () => expect(1).toBe(1));\n");
      fs.writeFileSync(
        path.join(dir, 'jest.config.cjs'),
        "module.exports = { testEnvironment: 'node', cacheDirectory: '<rootDir>/.jest-cache', reporters: process.env.BENCH_MODE === 'on' ? ['summary', '@testrun/jest'] : ['summary'] };\n",
      );
    }
  }
  return dirs;
}

function commandFor(framework) {
  return framework === 'vitest'
    ? [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run']
    : [path.join(root, 'node_modules/jest/bin/jest.js'), '--ci'];
}

/** One run; resolves with the main process's CPU ms (from the probe) and whether it went well. */
function runOnce(framework, dir, env) {
  const cpuFile = path.join(os.tmpdir(), `testrun-bench-cpu-${process.pid}.txt`);
  fs.rmSync(cpuFile, { force: true });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, commandFor(framework), {
      cwd: dir,
      env: { ...env, NODE_OPTIONS: `--require ${probe}`, BENCH_CPU_FILE: cpuFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      let cpuMs = NaN;
      try {
        cpuMs = Number(fs.readFileSync(cpuFile, 'utf8'));
      } catch {}
      resolve({ code, cpuMs, output });
    });
  });
}

export async function run({ rounds = 15, log = console.log, frameworks = ['vitest', 'jest'] } = {}) {
  const dirs = generateProjects();
  const server = await startServer();
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-fixed-'));
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CI_VARIABLE.test(name)));
  const rows = [];
  const problems = [];
  try {
    for (const framework of frameworks) {
      for (const [name, environment] of Object.entries(ENVIRONMENTS)) {
        const envFor = (mode) => ({
          ...baseEnv,
          ...environment.env,
          BENCH_MODE: mode,
          TESTRUN_API_KEY: server.apiKey,
          TESTRUN_BASE_URL: server.url,
          TESTRUN_SPOOL_DIR: spoolDir,
        });
        // Warm-up, not counted: Jest's transform cache, Vite's config bundling, the OS file cache.
        await runOnce(framework, dirs[framework], envFor('off'));
        await runOnce(framework, dirs[framework], envFor('on'));
        const off = [];
        const on = [];
        for (let round = 0; round < rounds; round += 1) {
          for (const [mode, into] of [
            ['off', off],
            ['on', on],
          ]) {
            const outcome = await runOnce(framework, dirs[framework], envFor(mode));
            const delivered = mode === 'off' || /testrun: 1 result → run /.test(outcome.output);
            if (outcome.code !== 0 || !Number.isFinite(outcome.cpuMs) || !delivered) {
              problems.push(
                `fixed cost ${framework} ${name} ${mode} round ${round + 1}: exit ${outcome.code}, cpu ${outcome.cpuMs}; ${outcome.output.slice(-300).trim()}`,
              );
              into.push(NaN);
            } else into.push(outcome.cpuMs);
          }
        }
        const deltas = on.map((v, i) => v - off[i]).filter(Number.isFinite);
        const deltaMs = median(deltas);
        const row = {
          framework,
          environment: name,
          label: environment.label,
          rounds: deltas.length,
          offMs: median(off.filter(Number.isFinite)),
          onMs: median(on.filter(Number.isFinite)),
          deltaMs,
          noiseMs: median(deltas.map((d) => Math.abs(d - deltaMs))),
        };
        rows.push(row);
        log(
          `  ${framework} ${name}: off ${Math.round(row.offMs)} ms, on ${Math.round(row.onMs)} ms, median difference ${Math.round(deltaMs)} ± ${Math.round(row.noiseMs)} ms`,
        );
      }
    }
    const stats = await server.stats();
    return { rows, problems, serverErrors: stats.serverErrors };
  } finally {
    await server.close();
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
}

export const TRANSPORTS = ['none', 'direct', 'proxy'];

/**
 * Figure 7b: the CPU of a fresh process making the requests of a small run through core's
 * HttpClient, over each transport it picks (direct: node:http; proxy: undici through a
 * forward proxy), or none; rounds alternate the three. Medians, and the per-round
 * differences from `none`.
 */
export async function transports({ rounds = 15, log = console.log } = {}) {
  const server = await startServer();
  const proxy = await startForwardProxy();
  const child = fileURLToPath(new URL('./transport-child.mjs', import.meta.url));
  const cpu = Object.fromEntries(TRANSPORTS.map((t) => [t, []]));
  try {
    for (let round = 0; round <= rounds; round += 1) {
      for (const transport of TRANSPORTS) {
        const out = lastJsonLine(
          await runNodeChild(
            [child, transport],
            { BENCH_URL: server.url, BENCH_API_KEY: server.apiKey, BENCH_PROXY: proxy.url },
            `transport ${transport}`,
          ),
        );
        if (round > 0) cpu[transport].push(out.cpuMs); // round 0 warms the OS file cache
      }
    }
    const rows = TRANSPORTS.map((transport) => {
      const deltas = cpu[transport].map((v, i) => v - cpu.none[i]);
      const deltaMs = median(deltas);
      return {
        transport,
        cpuMs: median(cpu[transport]),
        deltaMs,
        noiseMs: median(deltas.map((d) => Math.abs(d - deltaMs))),
        rounds: deltas.length,
      };
    });
    for (const row of rows)
      log(
        `  transport ${row.transport}: ${Math.round(row.cpuMs)} ms (+${Math.round(row.deltaMs)} ± ${Math.round(row.noiseMs)} ms)`,
      );
    const stats = await server.stats();
    return { rows, serverErrors: stats.serverErrors };
  } finally {
    await proxy.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table((await transports({ rounds: Number(process.argv[2] ?? 15) })).rows);
  const outcome = await run({ rounds: Number(process.argv[2] ?? 15) });
  console.table(outcome.rows);
  for (const problem of outcome.problems) console.log('PROBLEM:', problem);
}
