// Where node:test's fixed cost goes (figure 7c's node-test row). `node --test` runs the
// reporters in its parent process, whose --cpu-prof profile Node 20 does not write, and each
// test file in a process of its own; so each process's CPU is read at its 'exit'
// (lib/cpu-at-exit.cjs) in ABBA rounds of: no reporter of ours ("off"), a reporter of one line
// named by --test-reporter (ES module, CommonJS: Node's loading of any reporter), ours without an
// API key (loaded, nothing sent) and ours sending to a service that announces nothing. Prints
// per variant the parent's median CPU and the median difference from "off", and the same for
// the test file's process. `node bench/node-test-parent.mjs [rounds]` (default 20).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/server.mjs';
import { median } from './lib/stats.mjs';
import { prepare, workDir } from './user-cost.mjs';

const lib = (name) => fileURLToPath(new URL(`./lib/${name}`, import.meta.url));
const rounds = Number(process.argv[2] ?? 20);
const dir = path.join(workDir, 'node-test');
if (!fs.existsSync(path.join(dir, 'node_modules'))) prepare(['node-test'], console.log);

const reporter = (name) => [`--test-reporter=${name}`, '--test-reporter-destination=stdout'];
const VARIANTS = {
  off: [],
  'one-line ES module': reporter(lib('one-line-reporter.mjs')),
  'one-line CommonJS': reporter(lib('one-line-reporter.cjs')),
  'ours, no API key': reporter('@testrun/node-test'),
  'ours, sending': reporter('@testrun/node-test'),
};
const names = Object.keys(VARIANTS);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-node-test-'));
const log = path.join(scratch, 'cpu-at-exit.jsonl');
const server = await startServer({ specOnly: true });
try {
  // What each run of ours must have said: that it sent, or that it had no key.
  const said = {
    'ours, no API key': /TESTRUN_API_KEY is not set/,
    'ours, sending': /testrun: 3 results → run /,
  };
  const run = (variant) => {
    const { status, stdout, stderr } = spawnSync(
      process.execPath,
      [
        '--require',
        lib('cpu-at-exit.cjs'),
        '--test',
        ...reporter('spec'),
        ...VARIANTS[variant],
        'test/math.test.js',
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          CI: '',
          BENCH_VARIANT: variant,
          BENCH_CPU_AT_EXIT: log,
          TESTRUN_API_KEY: variant === 'ours, no API key' ? '' : server.apiKey,
          TESTRUN_BASE_URL: server.url,
          TESTRUN_SPOOL_DIR: path.join(scratch, 'spool'),
        },
        encoding: 'utf8',
      },
    );
    const output = stdout + stderr;
    if (status !== 0 || (said[variant] && !said[variant].test(output))) {
      throw new Error(`${variant}: exit ${status}; ${output.slice(-500)}`);
    }
  };
  for (const variant of names) run(variant); // warm-up, not counted
  fs.rmSync(log, { force: true });
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of round % 2 === 0 ? names : [...names].reverse()) run(variant);
  }
  const lines = fs
    .readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const cpu = (variant, role) =>
    lines.filter((l) => l.variant === variant && l.role === role).map((l) => l.cpuMs);
  const figure = (variant, role) => {
    const own = cpu(variant, role);
    const off = cpu('off', role);
    const delta = median(own.map((ms, i) => ms - off[i]));
    return `${Math.round(median(own))} ms (${delta < 0 ? '' : '+'}${Math.round(delta)})`;
  };
  console.log(
    `node:test, CPU per process at its exit, median of ${rounds} ABBA rounds (difference from off):`,
  );
  for (const variant of names) {
    console.log(
      `  ${variant.padEnd(20)} reporters' process ${figure(variant, 'parent')}, test file's ${figure(variant, 'child')}`,
    );
  }
} finally {
  await server.close();
  fs.rmSync(scratch, { recursive: true, force: true });
}
