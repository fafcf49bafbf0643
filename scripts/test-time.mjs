// `pnpm test:time`: runs what `pnpm test` runs, as it runs it (scripts/test.mjs: lint, then the
// type check beside Vitest's unit and main projects), then prints the wall time of each step, the machine's load before and after, and
// the slowest test files, each with the files that ran beside it. The figure the suite is held
// to (≤ 6 minutes on 2 quiet cores) is this script's total.
//
//   pnpm test:time                                  # the whole of pnpm test
//   pnpm test:time --vitest-only                    # Vitest alone (no lint, no typecheck)
//   pnpm test:time --top 20 -- e2e/cancelled-runs.test.ts e2e/playwright   # some files, via Vitest's filters
//   pnpm test:time --keep times.ndjson              # keep the per-file lines (file, ms, start, end)
//   pnpm test:time --spawns -- e2e/cancelled-runs.test.ts   # also count the processes each file starts
//   pnpm test:time --write-durations                # after a green run, commit the order files start in
//
// Each file's CPU time (its worker's and its processes', scripts/file-cpu-setup.mjs) is shown
// beside its wall time, and each step's (user + system, its children's included) beside its
// wall time where /usr/bin/time is installed: on a machine others are using, the CPU a file
// costs moves far less than its wall time, so before/after comparisons are made by it.
//
// Arguments after `--` go to `vitest run` in place of `--project unit --project main`.
// Per-file times come from scripts/file-times-reporter.mjs: a file's duration with its hooks
// and collection, which Vitest's JSON reporter leaves out for work done in beforeAll.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DURATIONS_FILE, writeDurations } from './file-durations.mjs';
import { PROJECTS, testSteps } from './test.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'vitest-only': { type: 'boolean', default: false },
    top: { type: 'string', default: '10' },
    keep: { type: 'string' },
    spawns: { type: 'boolean', default: false },
    'write-durations': { type: 'boolean', default: false },
  },
});
const top = Number(values.top);
const vitestArgs = positionals.length > 0 ? positionals : PROJECTS;
const timesFile = values.keep
  ? path.resolve(values.keep)
  : path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'test-time-')), 'times.ndjson');

fs.mkdirSync(path.dirname(timesFile), { recursive: true });
const cpuLog = path.join(path.dirname(timesFile), 'file-cpu.ndjson');
fs.writeFileSync(cpuLog, '');
const spawnLog = values.spawns ? path.join(path.dirname(timesFile), 'spawns.ndjson') : undefined;
if (spawnLog) fs.writeFileSync(spawnLog, '');
const gnuTime = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a step under /usr/bin/time, which writes its CPU time (its children's included) aside. */
const cpuFileOf = (name) => path.join(path.dirname(timesFile), `${name}.cpu`);
const wrap = (command, args, name) =>
  gnuTime ? [gnuTime, ['-q', '-f', '%U %S', '-o', cpuFileOf(name), command, ...args]] : [command, args];
function cpuMsOf(name) {
  const file = cpuFileOf(name);
  const cpu = gnuTime && fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').at(-1) : '';
  const [user, system] = (cpu ?? '').split(' ').map(Number);
  return Number.isFinite(user) && Number.isFinite(system) ? (user + system) * 1000 : undefined;
}

/** The machine's CPU counters (/proc/stat, Linux): busy and idle jiffies of all cores. */
function cpuCounters() {
  if (!fs.existsSync('/proc/stat')) return undefined;
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  return { busy: user + nice + system + irq + softirq + steal, idle: idle + iowait };
}
// The cores' idle share, every 10 s: a suite that leaves cores idle can be faster without
// doing less, so where they idled says where to look (a slow last file, a phase that waits).
const idleWindows = [];
let lastCounters = cpuCounters();
const sampler = setInterval(() => {
  const now = cpuCounters();
  if (!now || !lastCounters) return;
  const busy = now.busy - lastCounters.busy;
  const idle = now.idle - lastCounters.idle;
  idleWindows.push({ busy, idle });
  lastCounters = now;
}, 10_000);

const loadBefore = load();
const began = performance.now();
// What `pnpm test` runs, as it runs it (scripts/test.mjs): lint, then typecheck beside Vitest.
const steps = (
  await testSteps({
    vitestOnly: values['vitest-only'],
    vitestArgs: [...vitestArgs, '--reporter=default', '--reporter=./scripts/file-times-reporter.mjs'],
    env: {
      TESTRUN_FILE_TIMES: timesFile,
      TESTRUN_FILE_CPU: cpuLog,
      ...(spawnLog ? { TESTRUN_SPAWN_LOG: spawnLog } : {}),
    },
    wrap,
  })
).map((s) => ({ ...s, cpuMs: cpuMsOf(s.name) }));
const total = performance.now() - began;
clearInterval(sampler);

const files = fs.existsSync(timesFile)
  ? fs
      .readFileSync(timesFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
const cpuByFile = new Map(
  fs
    .readFileSync(cpuLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .map(({ file, cpuMs }) => [file, cpuMs]),
);
for (const f of files) f.cpuMs = cpuByFile.get(f.file);
const beside = (f) =>
  files
    .filter((g) => g !== f && g.start !== null && f.start !== null && g.start < f.end && g.end > f.start)
    .map((g) => ({ g, overlap: Math.min(f.end, g.end) - Math.max(f.start, g.start) }))
    .filter(({ overlap }) => overlap > 0.25 * (f.end - f.start))
    .sort((a, b) => b.overlap - a.overlap)
    .map(({ g }) => path.basename(g.file, '.ts'))
    .slice(0, 3)
    .join(', ');

const out = [];
out.push('');
out.push(`load average before: ${loadBefore}   after: ${load()}   (${os.cpus().length} cores)`);
const cpuOf = (s) => (s.cpuMs === undefined ? '' : `  (cpu ${seconds(s.cpuMs)})`);
for (const s of steps) {
  out.push(
    `${s.name.padEnd(10)} ${seconds(s.ms).padStart(9)}${cpuOf(s)}  ${s.ok ? 'ok' : `FAILED (${s.status})`}`,
  );
}

out.push(`${'total'.padEnd(10)} ${seconds(total).padStart(9)}`);
if (idleWindows.length > 0) {
  const share = (w) => Math.round((100 * w.idle) / Math.max(1, w.busy + w.idle));
  const all = idleWindows.reduce((a, w) => ({ busy: a.busy + w.busy, idle: a.idle + w.idle }), {
    busy: 0,
    idle: 0,
  });
  out.push(`cores idle ${share(all)} % of the run; by 10 s: ${idleWindows.map((w) => share(w)).join(' ')}`);
}
if (files.length > 0) {
  const sum = files.reduce((a, f) => a + f.ms, 0);
  out.push('');
  out.push(
    `${files.length} files, ${seconds(sum)} of file time; the ${Math.min(top, files.length)} slowest:`,
  );
  const cpu = (f) => (f.cpuMs === undefined ? '' : `cpu ${seconds(f.cpuMs)}`.padStart(12));
  for (const f of [...files].sort((a, b) => b.ms - a.ms).slice(0, top)) {
    const mark = f.state === 'passed' ? '' : ` [${f.state}]`;
    out.push(
      `${seconds(f.ms).padStart(9)} ${cpu(f)}  ${f.file}${mark}${beside(f) ? `   (beside: ${beside(f)})` : ''}`,
    );
  }
  const measured = files.filter((f) => f.cpuMs !== undefined);
  if (measured.length > 0) {
    const cpuSum = measured.reduce((a, f) => a + f.cpuMs, 0);
    out.push('');
    out.push(
      `${seconds(cpuSum)} of CPU in the files (theirs and their processes'); the ${Math.min(top, measured.length)} costliest:`,
    );
    for (const f of [...measured].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, top)) {
      out.push(`${seconds(f.ms).padStart(9)} ${cpu(f)}  ${f.file}`);
    }
  }
  if (values.keep) out.push(`\nper-file lines: ${timesFile}`);
}
if (spawnLog) {
  const spawns = fs
    .readFileSync(spawnLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const byFile = new Map();
  for (const s of spawns) {
    const entry = byFile.get(s.file) ?? { count: 0, ms: 0, programs: new Map() };
    entry.count += 1;
    entry.ms += s.ms;
    entry.programs.set(s.program, (entry.programs.get(s.program) ?? 0) + 1);
    byFile.set(s.file, entry);
  }
  out.push('');
  out.push(
    `${spawns.length} processes started; by file, most first (count, their summed wall time, by program):`,
  );
  for (const [file, e] of [...byFile].sort((a, b) => b[1].count - a[1].count).slice(0, top)) {
    const programs = [...e.programs]
      .sort((a, b) => b[1] - a[1])
      .map(([p, n]) => `${p} ${n}`)
      .join(', ');
    out.push(`${String(e.count).padStart(5)} ${seconds(e.ms).padStart(9)}  ${file}   (${programs})`);
  }
  if (values.keep) out.push(`per-spawn lines: ${spawnLog}`);
}
const green = steps.every((s) => s.ok);
if (values['write-durations']) {
  // Only a whole green run: a filtered or failed one would reorder the files by what it left out.
  if (!green || positionals.length > 0) {
    out.push('\n--write-durations: not written (only after a green run of the whole suite)');
  } else {
    writeDurations(files);
    out.push(`\nfile durations written to ${path.relative(process.cwd(), DURATIONS_FILE)}`);
  }
}
console.log(out.join('\n'));
process.exitCode = green ? 0 : 1;
