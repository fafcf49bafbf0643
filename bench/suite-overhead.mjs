// Figure 1: wall time of the real Vitest and Jest CLIs on the generated 5,000-test suite,
// without an extra reporter (baseline), with @testrun/<framework> against a local server,
// and with the framework's JUnit reporter writing a file. Runs alternate A B C A B C … so
// the machine's drift hits the three configurations alike; medians are compared.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILES, generateSuites, TESTS } from './lib/generate-suite.mjs';
import { startServer } from './lib/server.mjs';
import { max, median, min, relativeMad } from './lib/stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOTAL = FILES * TESTS;
const CONFIGS = ['base', 'testrun', 'junit'];
const LABELS = {
  base: 'baseline (no extra reporter)',
  testrun: '+ @testrun reporter',
  junit: '+ JUnit reporter',
};
const RUN_TIMEOUT_MS = 5 * 60_000;
const hasTime = fs.existsSync('/usr/bin/time');

function commandFor(framework, dir) {
  if (framework === 'vitest') {
    return [
      path.join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      path.join(dir, 'vitest.config.mjs'),
    ];
  }
  return [
    path.join(root, 'node_modules/jest/bin/jest.js'),
    '--ci',
    '-w',
    '2',
    '--config',
    path.join(dir, 'jest.config.cjs'),
  ];
}

/** One CLI run: wall time measured here, CPU time (user + sys, children included) by /usr/bin/time. */
export function runOnce(framework, dir, env) {
  const timeFile = path.join(os.tmpdir(), `testrun-bench-time-${process.pid}.txt`);
  const [file, ...args] = hasTime
    ? ['/usr/bin/time', '-f', '%U %S', '-o', timeFile, process.execPath, ...commandFor(framework, dir)]
    : [process.execPath, ...commandFor(framework, dir)];
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(file, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      let cpuMs;
      if (hasTime) {
        try {
          const [user, sys] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
          cpuMs = (user + sys) * 1000;
          fs.rmSync(timeFile, { force: true });
        } catch {}
      }
      resolve({ code: code ?? signal, wallMs, cpuMs, output: stdout + stderr });
    });
  });
}

/** `testrun: 5,000 results → run <id> (11 requests, 0.02 s)` */
function parseSummary(output) {
  const match = /testrun: ([\d,]+) results? → run (\S+) \(([\d,]+) requests?, ([\d.]+) s\)/.exec(output);
  if (!match) return undefined;
  return {
    delivered: Number(match[1].replaceAll(',', '')),
    runId: match[2],
    requests: Number(match[3].replaceAll(',', '')),
    durationMs: Number(match[4]) * 1000,
  };
}

function countJunitCases(file) {
  try {
    return (fs.readFileSync(file, 'utf8').match(/<testcase\b/g) ?? []).length;
  } catch {
    return -1;
  }
}

/** `rounds`: runs per configuration, a number or per framework ({ vitest: 7, jest: 5 }). */
export async function run({ rounds = 5, log = console.log, frameworks = ['vitest', 'jest'] } = {}) {
  const roundsOf = (framework) => (typeof rounds === 'number' ? rounds : rounds[framework]);
  const dirs = generateSuites();
  const server = await startServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-suite-'));
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('TESTRUN_')),
  );
  const results = [];
  const problems = [];
  try {
    for (const framework of frameworks) {
      const dir = dirs[framework];
      const junitFile = path.join(tmp, `${framework}-junit.xml`);
      const envFor = (mode) => ({
        ...baseEnv,
        BENCH_MODE: mode,
        BENCH_JUNIT_FILE: junitFile,
        TESTRUN_API_KEY: server.apiKey,
        TESTRUN_BASE_URL: server.url,
        TESTRUN_SPOOL_DIR: path.join(tmp, 'spool'),
      });
      const runs = Object.fromEntries(CONFIGS.map((mode) => [mode, []]));
      const broken = new Set();

      // Warm-up, not counted: fills Jest's transform cache and Vite's cache, and loads the OS file cache.
      log(`  ${framework}: warm-up run`);
      const warm = await runOnce(framework, dir, envFor('base'));
      if (warm.code !== 0)
        problems.push(`${framework} warm-up exited ${warm.code}: ${warm.output.slice(-500)}`);

      const frameworkRounds = roundsOf(framework);
      for (let round = 1; round <= frameworkRounds; round += 1) {
        for (const mode of CONFIGS) {
          if (broken.has(mode)) continue;
          const before = mode === 'testrun' ? await server.stats() : undefined;
          fs.rmSync(junitFile, { force: true });
          const outcome = await runOnce(framework, dir, envFor(mode));
          const record = { ...outcome, ok: outcome.code === 0 };
          if (mode === 'testrun') {
            const newIds = (await server.stats()).runs.slice(before.runs.length).map((r) => r.id);
            const after = await server.stats(newIds);
            const summary = parseSummary(outcome.output);
            const newRuns = after.runs.slice(before.runs.length);
            const stored = newRuns.reduce((sum, r) => sum + r.results, 0);
            const distinct = newRuns.reduce((sum, r) => sum + r.distinct, 0);
            record.summary = summary;
            record.stored = stored;
            record.serverErrors = after.serverErrors - before.serverErrors;
            record.requests = after.requests - before.requests;
            if (
              !summary ||
              summary.delivered !== TOTAL ||
              stored !== TOTAL ||
              distinct !== TOTAL ||
              newRuns.length !== 1
            ) {
              record.ok = false;
              problems.push(
                `${framework} + @testrun round ${round}: ${newRuns.length} run(s), ${stored} results stored (${distinct} distinct), ` +
                  `summary ${summary ? `${summary.delivered} delivered` : 'line missing'}; output tail: ${outcome.output.slice(-400).trim()}`,
              );
            }
          }
          if (mode === 'junit') {
            record.junitCases = countJunitCases(junitFile);
            if (record.junitCases !== TOTAL) {
              record.ok = false;
              problems.push(
                `${framework} + JUnit round ${round}: ${record.junitCases} <testcase> in ${junitFile}`,
              );
            }
          }
          if (outcome.code !== 0) {
            problems.push(
              `${framework} ${mode} round ${round} exited ${outcome.code}: ${outcome.output.slice(-400).trim()}`,
            );
          }
          if (!record.ok && round === 1) broken.add(mode);
          runs[mode].push(record);
          log(
            `  ${framework} round ${round}/${frameworkRounds} ${mode.padEnd(7)} ${(outcome.wallMs / 1000).toFixed(2)} s` +
              `${record.cpuMs ? ` (cpu ${(record.cpuMs / 1000).toFixed(2)} s)` : ''}${record.ok ? '' : ' FAILED'}`,
          );
        }
      }

      const baseWall = median(runs.base.filter((r) => r.ok).map((r) => r.wallMs));
      // Within one round the runs are seconds apart: their ratio cancels most of the machine's drift.
      const pairedRatios = (mode, key = 'wallMs') =>
        runs[mode].flatMap((r, i) =>
          r.ok && runs.base[i]?.ok && r[key] && runs.base[i][key] ? [r[key] / runs.base[i][key]] : [],
        );
      // The spread of a round's ratio around their median: an overhead well inside it is noise.
      const spread = (ratios) => {
        const m = median(ratios);
        return median(ratios.map((r) => Math.abs(r - m)));
      };
      const baseCpu = median(runs.base.filter((r) => r.ok && r.cpuMs).map((r) => r.cpuMs));
      for (const mode of CONFIGS) {
        const good = runs[mode].filter((r) => r.ok);
        const walls = good.map((r) => r.wallMs);
        const cpus = good.filter((r) => r.cpuMs).map((r) => r.cpuMs);
        const row = {
          framework,
          mode,
          label: LABELS[mode],
          runs: good.length,
          failed: runs[mode].length - good.length,
          medianMs: walls.length ? median(walls) : NaN,
          minMs: walls.length ? min(walls) : NaN,
          maxMs: walls.length ? max(walls) : NaN,
          medianCpuMs: cpus.length ? median(cpus) : NaN,
        };
        row.ratio = row.medianMs / baseWall;
        row.pairedRatio = mode === 'base' ? 1 : median(pairedRatios(mode));
        row.pairedNoise = mode === 'base' ? 0 : spread(pairedRatios(mode));
        row.pairedCpuRatio = mode === 'base' ? 1 : median(pairedRatios(mode, 'cpuMs'));
        row.pairedCpuNoise = mode === 'base' ? 0 : spread(pairedRatios(mode, 'cpuMs'));
        row.noise = relativeMad(walls);
        row.cpuRatio = row.medianCpuMs / baseCpu;
        if (mode === 'testrun') {
          const summaries = good.map((r) => r.summary).filter(Boolean);
          row.endHookMs = summaries.length ? median(summaries.map((s) => s.durationMs)) : NaN;
          row.requestsPerRun = summaries.length ? median(summaries.map((s) => s.requests)) : NaN;
          row.serverErrors = good.reduce((sum, r) => sum + r.serverErrors, 0);
          row.stored = good.reduce((sum, r) => sum + r.stored, 0);
        }
        results.push(row);
      }
    }
    const finalStats = await server.stats();
    return { rows: results, problems, serverErrors: finalStats.serverErrors };
  } finally {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv[2] ?? 1);
  const frameworks = process.argv[3] ? process.argv[3].split(',') : undefined;
  const outcome = await run({ rounds, frameworks });
  console.table(outcome.rows);
  for (const problem of outcome.problems) console.log('PROBLEM:', problem);
}
