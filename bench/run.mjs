// `pnpm bench`: every figure of bench/README.md, a table of them with the targets, written to
// bench/results.md. Options: --vitest-rounds N, --jest-rounds N (suite runs per configuration,
// default 9 each), --fixed-rounds N (paired rounds of the fixed cost, default 15),
// --user-rounds N (rounds of the fixed cost as a user pays it, default 16),
// --only requests,flush,throughput,memory,upload,fixed,user,realworld,suite,profile,pages,scale,summary,shards,
// --frameworks vitest,jest, --write (write results.md even when --only leaves sections out),
// --scale F (figure 10 with F × 100,000 runs; results.md records 1), --engines sqlite,postgres,
// --shard-rounds N (rounds of figure 11's four shards each way, default 3).
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import * as ciSummary from './ci-summary.mjs';
import * as fixed from './fixed-cost.mjs';
import * as flush from './flush-latency.mjs';
import { FILES, TESTS } from './lib/generate-suite.mjs';
import { int, mb, ms, pct, seconds } from './lib/stats.mjs';
import * as memory from './memory.mjs';
import * as profile from './profile.mjs';
import * as realWorld from './real-world.mjs';
import * as requests from './requests-per-run.mjs';
import * as runsPage from './runs-page.mjs';
import * as serverScale from './server-scale.mjs';
import * as shardPlans from './shard-plans.mjs';
import * as suite from './suite-overhead.mjs';
import * as throughput from './throughput.mjs';
import * as uploadBounds from './upload-bounds.mjs';
import * as upload from './upload-memory.mjs';
import * as userCost from './user-cost.mjs';

const SECTIONS = [
  'requests',
  'flush',
  'throughput',
  'memory',
  'upload',
  'fixed',
  'user',
  'realworld',
  'suite',
  'profile',
  'pages',
  'scale',
  'summary',
  'shards',
];
const { values } = parseArgs({
  options: {
    'vitest-rounds': { type: 'string', default: '9' },
    'jest-rounds': { type: 'string', default: '9' },
    'fixed-rounds': { type: 'string', default: '15' },
    'user-rounds': { type: 'string', default: '16' },
    only: { type: 'string' },
    frameworks: { type: 'string', default: 'vitest,jest' },
    write: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
    engines: { type: 'string', default: 'sqlite,postgres' },
    'shard-rounds': { type: 'string', default: '3' },
  },
});
const rounds = { vitest: Number(values['vitest-rounds']), jest: Number(values['jest-rounds']) };
const only = values.only ? values.only.split(',') : SECTIONS;
const frameworks = values.frameworks.split(',');
const full =
  SECTIONS.every((s) => only.includes(s)) &&
  frameworks.length === 2 &&
  rounds.vitest >= 9 &&
  rounds.jest >= 9 &&
  Number(values['fixed-rounds']) >= 15 &&
  Number(values.scale) === 1;

const started = Date.now();
const loadAtStart = os.loadavg();
const log = (line) => console.log(line);
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
const out = {};

if (only.includes('requests')) {
  log(`[${elapsed()}] 5. requests per run`);
  out.requests = await requests.run();
}
if (only.includes('flush')) {
  log(`[${elapsed()}] 2. end-of-run flush latency`);
  out.flush = await flush.run({ log });
}
if (only.includes('throughput')) {
  log(`[${elapsed()}] 3. core throughput`);
  out.throughput = await throughput.run({ mode: 'file' });
  out.throughputTight = await throughput.run({ mode: 'tight' });
  out.perResult = await throughput.run({ mode: 'file', input: 'report' });
}
if (only.includes('memory')) {
  log(`[${elapsed()}] 4. memory`);
  out.memory = await memory.run({ log });
}
if (only.includes('upload')) {
  log(`[${elapsed()}] 6. testrun upload memory`);
  out.upload = await upload.run({ log });
  log(`[${elapsed()}] 6b. testrun upload on reports past its bounds`);
  out.uploadBounds = await uploadBounds.run({ log });
}
if (only.includes('fixed')) {
  log(`[${elapsed()}] 7. fixed cost per run (${values['fixed-rounds']} paired rounds)`);
  out.fixed = await fixed.run({ rounds: Number(values['fixed-rounds']), log, frameworks });
  out.transports = await fixed.transports({ rounds: Number(values['fixed-rounds']), log });
}
if (only.includes('user')) {
  log(
    `[${elapsed()}] 7c. fixed cost as a user pays it: packed tarballs, process tree, to the end (${values['user-rounds']} rounds)`,
  );
  out.user = await userCost.run({ rounds: Number(values['user-rounds']), log });
}
if (only.includes('realworld')) {
  log(`[${elapsed()}] 8. a real-world-shaped Jest run`);
  out.realWorld = await realWorld.run({ log });
}
if (only.includes('suite')) {
  log(
    `[${elapsed()}] 1. suite overhead (${FILES} files × ${TESTS} tests; rounds: vitest ${rounds.vitest}, jest ${rounds.jest})`,
  );
  out.suite = await suite.run({ rounds, log, frameworks });
}
if (only.includes('pages')) {
  log(`[${elapsed()}] 9. the local server's pages with 10,000 runs and 1,000,000 results`);
  out.pages = await runsPage.run({ log });
}
if (only.includes('scale')) {
  log(`[${elapsed()}] 10. the local server at scale (${values.scale} × 100,000 runs of 100 results)`);
  out.scale = await serverScale.run({ scale: Number(values.scale), engines: values.engines.split(','), log });
}
if (only.includes('summary')) {
  log(`[${elapsed()}] 13. the CI summary of 100,000 results with 10 KB hostile names and messages`);
  out.summary = await ciSummary.run();
  log(
    `    tallied in ${ms(out.summary.tallyMs)}, written in ${ms(out.summary.writeMs)}: ${mb(out.summary.bytes)} (${int(out.summary.bytes)} bytes)`,
  );
}
if (only.includes('shards')) {
  log(
    `[${elapsed()}] 11. shards that end together (${values['shard-rounds']} rounds of four shards, three ways)`,
  );
  out.shards = await shardPlans.run({ rounds: Number(values['shard-rounds']), log });
}
if (only.includes('profile')) {
  log(`[${elapsed()}] profile of the core throughput run`);
  out.profile = await profile.run({ mode: 'file', top: 12 });
}
const loadAtEnd = os.loadavg();

// ── targets ──────────────────────────────────────────────────────────────────────────────
const targets = [];
const target = (name, measured, met) => targets.push({ name, measured, met });
const problems = [];

if (out.suite) {
  problems.push(...out.suite.problems);
  const noise = (fraction) => `±${(fraction * 100).toFixed(1)}%`;
  for (const framework of frameworks) {
    const rows = out.suite.rows.filter((r) => r.framework === framework);
    const ours = rows.find((r) => r.mode === 'testrun');
    const junit = rows.find((r) => r.mode === 'junit');
    const paired = `median of ${ours.runs} paired rounds`;
    target(
      `${framework}: @testrun wall-time overhead ≤ 1% (5,000 tests)`,
      `${pct(ours.pairedRatio - 1)} ${noise(ours.pairedNoise)} (${paired}; medians ${seconds(ours.medianMs)} vs ${seconds(rows[0].medianMs)}, baseline run-to-run noise ${noise(rows[0].noise)})`,
      ours.runs > 0 && ours.pairedRatio - 1 <= 0.01,
    );
    target(
      `${framework}: @testrun CPU overhead ≤ 2% (5,000 tests, whole process tree)`,
      `${pct(ours.pairedCpuRatio - 1)} ${noise(ours.pairedCpuNoise)} (${paired}; medians ${seconds(ours.medianCpuMs)} vs ${seconds(rows[0].medianCpuMs)})`,
      ours.runs > 0 && ours.pairedCpuRatio - 1 <= 0.02,
    );
    target(
      `${framework}: @testrun overhead below the JUnit reporter's (wall and CPU)`,
      `wall ${pct(ours.pairedRatio - 1)} vs JUnit ${pct(junit.pairedRatio - 1)} ${noise(junit.pairedNoise)}; ` +
        `CPU ${pct(ours.pairedCpuRatio - 1)} vs JUnit ${pct(junit.pairedCpuRatio - 1)} ${noise(junit.pairedCpuNoise)}`,
      ours.runs > 0 &&
        junit.runs > 0 &&
        ours.pairedRatio <= junit.pairedRatio &&
        ours.pairedCpuRatio <= junit.pairedCpuRatio,
    );
  }
}
if (out.fixed) {
  problems.push(...out.fixed.problems);
  for (const row of out.fixed.rows) {
    const limit = row.environment === 'local' ? 50 : 80;
    target(
      `${row.framework}: fixed cost per run ≤ ${limit} ms of main-process CPU, ${row.label}`,
      `${ms(row.deltaMs)} ±${ms(row.noiseMs)} (median of ${row.rounds} paired differences; ${ms(row.onMs)} on vs ${ms(row.offMs)} off)`,
      row.rounds > 0 && row.deltaMs <= limit,
    );
  }
}
if (out.user) {
  problems.push(...out.user.problems);
  const figure = ({ value, noise }) => `${value < 0 ? '' : '+'}${ms(value)} ±${ms(noise)}`;
  const { floor } = out.user;
  for (const row of out.user.rows) {
    const where = row.environment === 'local' ? 'outside CI' : 'GitHub Actions';
    // Jest's anchor, jest-junit, costs about 20 ms: ours is to cost no more.
    const cpuLimit = row.runner === 'jest' ? 20 : 30;
    for (const [service, label] of [
      ['bare', 'a service that announces no extension'],
      ['serve', 'testrun serve (every extension announced)'],
    ]) {
      const cost = row[service];
      target(
        `${row.runner}: fixed cost per run as a user pays it ≤ ${cpuLimit} ms CPU and ≤ 30 ms wall, ${where}, against ${label} (whole process tree, to its end)`,
        `CPU ${figure(cost.cpu)}, wall ${figure(cost.wall)}; its JUnit reporter: CPU ${figure(row.junit.cpu)}, wall ${figure(row.junit.wall)}; Node's HTTP client alone sending the same requests (the floor, over \`node -e 0\`): CPU ${figure(floor[service].cpu)}, wall ${figure(floor[service].wall)}${service === 'bare' ? `; the same requests written by hand over \`node:net\`: CPU ${figure(floor.net.cpu)}, wall ${figure(floor.net.wall)}` : ''} (median of ${out.user.rounds} rounds, ABBA; without either ${ms(row.offCpuMs)} CPU, ${ms(row.offWallMs)} wall)`,
        cost.cpu.value <= cpuLimit && cost.wall.value <= 30,
      );
    }
  }
}
if (out.perResult) {
  const p = out.perResult;
  problems.push(...p.problems);
  const us = (p.cpuMs * 1000) / p.total;
  target(
    'reporter CPU per result ≤ 5 µs (100,000 results as the adapters hand them: naming, normalizing, serializing, sending)',
    `${us.toFixed(2)} µs (${ms(p.cpuMs)} of CPU for ${int(p.total)}; median of 3)`,
    us <= 5,
  );
}
if (out.flush) {
  problems.push(...out.flush.problems);
  target(
    'flush latency (last result → end hook done) ≤ 50 ms median',
    `${ms(out.flush.medianMs)} (min ${ms(out.flush.minMs)}, max ${ms(out.flush.maxMs)})`,
    out.flush.medianMs <= 50,
  );
}
if (out.throughput) {
  const t = out.throughput;
  problems.push(...t.problems, ...out.throughputTight.problems);
  target(
    'core ≥ 100,000 results/s to loopback',
    `${int(t.total / (t.ms / 1000))} results/s`,
    t.total / (t.ms / 1000) >= 100_000,
  );
  target(
    'core within 3× of JSON.stringify of the same batches',
    `${(t.ms / t.floorMs).toFixed(1)}× (${ms(t.ms)} vs ${ms(t.floorMs)}; client CPU alone ${(t.cpuMs / t.floorMs).toFixed(1)}×)`,
    t.ms / t.floorMs <= 3,
  );
}
if (out.memory) {
  problems.push(...out.memory.problems);
  for (const mode of memory.MODES) {
    const small = out.memory.rows.find((r) => r.mode === mode && r.total === 10_000);
    const large = out.memory.rows.find((r) => r.mode === mode && r.total === 100_000);
    const how = mode === 'file' ? 'per-file chunks' : 'one tight loop';
    target(
      `heap growth for 100,000 results < 50 MB (${how})`,
      `peak ${mb(large.peakGrowth)}, retained after GC ${mb(large.retained)}`,
      large.peakGrowth < 50 * 1024 * 1024,
    );
    target(
      `heap growth for 100,000 within 2× of 10,000 (${how})`,
      `${(large.peakGrowth / small.peakGrowth).toFixed(2)}× (${mb(large.peakGrowth)} vs ${mb(small.peakGrowth)}; live peak ${(large.peakLiveGrowth / small.peakLiveGrowth).toFixed(2)}×, retained ${(large.retained / small.retained).toFixed(2)}×)`,
      large.peakGrowth <= 2 * small.peakGrowth,
    );
  }
}
if (out.realWorld) problems.push(...out.realWorld.problems);
if (out.pages) {
  problems.push(...out.pages.problems);
  const htmlPages = out.pages.rows.filter((r) => !r.path.startsWith('/api/'));
  const slowest = htmlPages.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
  const first = out.pages.rows[0];
  target(
    'local server: every page ≤ 100 ms median with 10,000 runs and 1,000,000 results',
    `runs list ${ms(first.medianMs)}; slowest page ${ms(slowest.medianMs)} (${slowest.name})`,
    slowest.medianMs <= 100,
  );
}
if (out.scale) {
  problems.push(...out.scale.problems);
  for (const t of serverScale.targets(out.scale)) target(t.name, t.measured, t.met);
}
if (out.upload) {
  problems.push(...out.upload.problems);
  const small = out.upload.rows.find((r) => r.testcases === 10_000);
  const large = out.upload.rows.find((r) => r.testcases === 100_000);
  target(
    'testrun upload: live heap for 100,000 testcases within 1.5× of 10,000 (flat memory)',
    `${(large.peakLiveHeap / small.peakLiveHeap).toFixed(2)}× (${mb(large.peakLiveHeap)} vs ${mb(small.peakLiveHeap)}; peak RSS ${mb(large.peakRss)} vs ${mb(small.peakRss)})`,
    large.peakLiveHeap <= 1.5 * small.peakLiveHeap,
  );
}
if (out.shards) {
  problems.push(...out.shards.problems);
  const row = (mode) => out.shards.rows.find((r) => r.mode === mode);
  const [own, plan, sequencer] = [row('own'), row('plan'), row('sequencer')];
  const spreads = (r) =>
    `runs ${(r.runSpread * 100).toFixed(1)}%, tests ${(r.testSpread * 100).toFixed(1)}%, process wall ${(r.spread * 100).toFixed(1)}%`;
  target(
    `four shards planned by testrun plan end within 15% of each other (${shardPlans.FILES} files of 50× durations; each shard's run, creation to end)`,
    `testrun plan: ${spreads(plan)}; the sequencer: ${spreads(sequencer)}; Vitest's own --shard: ${spreads(own)} (median of ${out.shards.rounds} rounds)`,
    plan.runSpread <= 0.15 && sequencer.runSpread <= 0.15,
  );
}
if (out.uploadBounds) {
  problems.push(...out.uploadBounds.problems);
  const { rows } = out.uploadBounds;
  target(
    `testrun upload: a report nested past its bound (TAP 10,000 deep, JUnit and CTRF 1,000,000 deep) refused within ${uploadBounds.TARGET_MS / 1000} s, saying so`,
    rows.map((r) => `${r.name.split(' ')[0]} ${seconds(r.ms)}`).join(', '),
    rows.every((r) => r.met),
  );
}
if (out.summary) {
  const { tallyMs, writeMs, bytes } = out.summary;
  target(
    'CI summary of 100,000 results with 10 KB hostile names and messages: < 1 MiB, tallied and written < 2 s',
    `${int(bytes)} bytes; tallied in ${ms(tallyMs)}, written in ${ms(writeMs)}`,
    bytes < 1024 * 1024 && tallyMs + writeMs < 2000,
  );
}
if (out.requests) {
  const bad = out.requests.rows.filter((r) => !r.ok);
  target(
    'requests per run = ceil(N/500) + 1 for N in 1, 499, 500, 501, 5000',
    bad.length === 0 ? 'all 5 match' : `${bad.length} mismatch: N = ${bad.map((r) => r.n).join(', ')}`,
    bad.length === 0,
  );
}
{
  const serverErrors =
    [out.flush, out.memory, out.upload, out.suite, out.fixed, out.transports, out.realWorld].reduce(
      (sum, s) => sum + (s?.serverErrors ?? 0),
      0,
    ) +
    [out.throughput, out.throughputTight, out.perResult].reduce(
      (sum, t) => sum + (t?.runs.reduce((a, r) => a + r.serverErrors, 0) ?? 0),
      0,
    ) +
    (out.requests?.rows.reduce((sum, r) => sum + r.notOk, 0) ?? 0);
  target(
    'local server correct under load: no 5xx, every result stored once',
    `${serverErrors} 5xx; ${problems.length} delivery/storage problems`,
    serverErrors === 0 && problems.length === 0,
  );
}

// ── report ───────────────────────────────────────────────────────────────────────────────
const cpus = os.cpus();
const md = [];
md.push('# testrun benchmarks', '');
md.push(
  `${new Date().toISOString()} · Node ${process.version} · ${os.platform()} ${os.arch()} · ${cpus.length} cores (${cpus[0]?.model.trim()}) · ` +
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GB memory · load average ${loadAtStart.map((l) => l.toFixed(1)).join('/')} at start, ` +
    `${loadAtEnd.map((l) => l.toFixed(1)).join('/')} at end · \`pnpm bench\`${full ? '' : ` (partial: ${only.join(', ')}; ${frameworks.join(', ')}; rounds: vitest ${rounds.vitest}, jest ${rounds.jest})`} in ${elapsed()}.`,
  '',
  'What each figure means and how it is measured: bench/README.md.',
  '',
);

md.push('## Targets', '', '| Target | Measured | |', '|---|---|---|');
for (const t of targets) md.push(`| ${t.name} | ${t.measured} | ${t.met ? 'MET' : '**MISSED**'} |`);
md.push('');

if (out.suite) {
  md.push(
    `## 1. Suite overhead: ${FILES} files × ${TESTS} tests = ${int(FILES * TESTS)} tests; alternating rounds: Vitest ${rounds.vitest}, Jest ${rounds.jest}`,
    '',
    'Real CLIs (`vitest run`, `jest --ci -w 2`), quiet reporter in every configuration (Vitest `dot`, Jest `summary`). Wall time from spawn to exit; CPU = user + sys of the whole process tree.',
    '',
    '| Framework | Configuration | Median wall | Min – max | Noise (MAD) | vs baseline (medians) | Paired wall (median of per-round ratios ± their MAD) | Median CPU | Paired CPU |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of out.suite.rows) {
    md.push(
      `| ${r.framework} | ${r.label}${r.failed ? ` (${r.failed} failed runs left out)` : ''} | ${seconds(r.medianMs)} | ${seconds(r.minMs)} – ${seconds(r.maxMs)} | ` +
        `±${(r.noise * 100).toFixed(1)}% | ${r.mode === 'base' ? '—' : `${r.ratio.toFixed(3)} (${pct(r.ratio - 1)})`} | ` +
        `${r.mode === 'base' ? '—' : `${pct(r.pairedRatio - 1)} ±${(r.pairedNoise * 100).toFixed(1)}%`} | ${seconds(r.medianCpuMs)} | ` +
        `${r.mode === 'base' ? '—' : `${pct(r.pairedCpuRatio - 1)} ±${(r.pairedCpuNoise * 100).toFixed(1)}%`} |`,
    );
  }
  const ours = out.suite.rows.filter((r) => r.mode === 'testrun');
  md.push(
    '',
    `@testrun runs: ${ours.map((r) => `${r.framework} ${int(r.stored)} results stored over ${r.runs} runs, median ${r.requestsPerRun} requests per run, end hook (summary line) median ${ms(r.endHookMs)}`).join('; ')}.`,
    '',
  );
}

if (out.fixed) {
  md.push(
    "## 7. Fixed cost per run: CPU of the framework's main process, reporter on − off",
    '',
    "A one-test project per framework, the packages installed into its node_modules as a user has them; CPU (user + system, all threads) of the CLI's own process, read as it exits. Off and on alternate; the figure is the median of the per-round differences, ± the median absolute deviation of those differences.",
    '',
    '| Framework | Environment | Off (median) | On (median) | On − off | Noise | Rounds |',
    '|---|---|---|---|---|---|---|',
    ...out.fixed.rows.map(
      (r) =>
        `| ${r.framework} | ${r.label} | ${ms(r.offMs)} | ${ms(r.onMs)} | ${ms(r.deltaMs)} | ±${ms(r.noiseMs)} | ${r.rounds} |`,
    ),
    '',
    '### 7b. The HTTP stack alone: a fresh process that creates a run and sends one batch, then idles 1 s',
    '',
    "Through core's HttpClient: `direct` is the node:http transport core uses when no proxy applies, `proxy` the undici transport it uses through a proxy (here a forward proxy in the bench's own process), `none` a process that sends nothing. CPU of the whole process at exit, all threads.",
    '',
    '| Transport | Process CPU (median) | More than sending nothing | Noise | Rounds |',
    '|---|---|---|---|---|',
    ...out.transports.rows.map(
      (r) =>
        `| ${r.transport === 'none' ? 'no request' : r.transport} | ${ms(r.cpuMs)} | ${r.transport === 'none' ? '—' : ms(r.deltaMs)} | ${r.transport === 'none' ? '—' : `±${ms(r.noiseMs)}`} | ${r.rounds} |`,
    ),
    '',
  );
}

if (out.realWorld) {
  const w = out.realWorld;
  md.push(
    `## 8. A real-world-shaped run: ${w.files} small files, ${int(w.tests)} tests of 0–20 ms (one slow test in every 25th file), Jest \`-w 2\``,
    '',
    `| Run wall time | Requests per run | Requests per second of run time | File result → acknowledged by the service: median | … largest | Runs |`,
    '|---|---|---|---|---|---|',
    `| ${seconds(w.wallMs)} | ${w.requests} | ${w.requestsPerSecond.toFixed(1)} | ${ms(w.medianGapMs)} | ${ms(w.maxGapMs)} | ${w.runs} |`,
    '',
    'Medians over the runs, except the largest gap, which is the largest of all runs. "Acknowledged": the 2xx answer to the request that carried the file\'s results was sent.',
    '',
  );
}

if (out.flush) {
  const f = out.flush;
  md.push(
    '## 2. End-of-run flush latency (5,000 results)',
    '',
    `Core driven in-process: 200 chunks of 25 results ~5 ms apart, then \`await endRun()\` timed; ${f.repetitions} runs after a warm-up.`,
    '',
    '| Measure | Median | Min – max |',
    '|---|---|---|',
    `| last result handed to core → endRun() resolved | ${ms(f.medianMs)} | ${ms(f.minMs)} – ${ms(f.maxMs)} |`,
    `| summary.durationMs (drain inside RunSession) | ${f.medianDurationMs} ms | |`,
    `| requests per run | ${f.medianRequests} | |`,
  );
  if (out.suite) {
    for (const r of out.suite.rows.filter((row) => row.mode === 'testrun')) {
      md.push(
        `| ${r.framework} CLI runs: end hook drain from the summary line (10 ms resolution) | ${ms(r.endHookMs)} | |`,
      );
    }
  }
  md.push('');
}

if (out.throughput) {
  md.push(
    '## 3. Core throughput: 100,000 results → local server on loopback (batchSize 500, concurrency 4)',
    '',
    "RunReporter.addResults per file of 25 results (or addFile: a file's tests as the adapters hand them, named by core), then endRun(); the server runs in another process. Median of 3 runs after a warm-up. Client CPU / results = the per-result cost.",
    '',
    '| Adding | Wall | Results/s | Requests (client / server) | Client CPU | Per result | Server CPU | JSON.stringify floor | Wall / floor | Client CPU / floor |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  const how = (t) =>
    t.input === 'report'
      ? 'addFile per file, awaiting between files'
      : t.mode === 'file'
        ? 'addResults per file, awaiting between files'
        : 'addResults in one tight loop';
  for (const t of [out.throughput, out.throughputTight, out.perResult]) {
    const run = t.runs.find((r) => Math.abs(r.ms - t.ms) < 1e-6) ?? t.runs[0];
    const floor = Number.isFinite(t.floorMs)
      ? `${ms(t.floorMs)} (${mb(t.bytes)}) | ${(t.ms / t.floorMs).toFixed(1)}× | ${(t.cpuMs / t.floorMs).toFixed(1)}×`
      : '— | — | —';
    md.push(
      `| ${how(t)} | ${ms(t.ms)} | ${int(t.total / (t.ms / 1000))} | ${run.clientRequests} / ${run.serverRequests} | ` +
        `${ms(t.cpuMs)} | ${((t.cpuMs * 1000) / t.total).toFixed(2)} µs | ${ms(t.serverCpuMs)} | ${floor} |`,
    );
  }
  md.push('');
}

if (out.memory) {
  md.push(
    '## 4. Memory: heap growth of the reporting process',
    '',
    'Fresh `node --expose-gc` process per measurement, server in another process; results made per file and dropped once handed over. Peak: highest `used_heap_size` sampled every 2 ms and after each file, above the baseline (garbage not yet collected included). Live peak: a second run that collects garbage after every 10th file; the largest heap left after a collection. Retained: after all results were added, after a full GC. Median of 3.',
    '',
    '| Adding | Results | Peak heap growth | Live peak | Retained after GC | RSS growth | Requests |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of out.memory.rows) {
    md.push(
      `| ${r.mode === 'file' ? 'per file, awaiting between files' : 'one tight loop'} | ${int(r.total)} | ${mb(r.peakGrowth)} | ${mb(r.peakLiveGrowth)} | ${mb(r.retained)} | ${mb(r.rssGrowth)} | ${r.requests} |`,
    );
  }
  md.push('');
}

if (out.requests) {
  md.push(
    '## 5. Requests per run (batchSize 500)',
    '',
    '| Results | Expected ceil(N/500)+1 | Counted by the server | Counted by the client | Stored | |',
    '|---|---|---|---|---|---|',
  );
  for (const r of out.requests.rows) {
    md.push(
      `| ${int(r.n)} | ${r.expected} | ${r.actual} | ${r.clientCount} | ${int(r.stored)} | ${r.ok ? 'OK' : '**MISMATCH**'} |`,
    );
  }
  md.push('');
}

if (out.upload) {
  md.push(
    '## 6. Memory of `testrun upload` on a generated JUnit report',
    '',
    'A report written as Surefire or Gradle would write a long run (suites of 50; every 20th testcase failed with a stack trace, every 50th skipped, every 10th with captured output), uploaded by the CLI in a fresh process, the server in another. Peak RSS and peak heap: the run as a user has it, garbage not yet collected included. Live heap: a second run that collects garbage every 100 ms; the largest heap left after a collection.',
    '',
    '| Testcases | Report | Peak RSS | Peak heap | Live heap after GC | At start (RSS / heap) | Wall |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of out.upload.rows) {
    md.push(
      `| ${int(r.testcases)} | ${mb(r.bytes)} | ${mb(r.peakRss)} | ${mb(r.peakHeap)} | ${mb(r.peakLiveHeap)} | ${mb(r.baselineRss)} / ${mb(r.baselineHeap)} | ${seconds(r.ms)} |`,
    );
  }
  md.push('');
}

if (out.uploadBounds) {
  md.push(
    '## 6b. `testrun upload` on reports past its bounds',
    '',
    'Each report uploaded by the CLI in a fresh process (spawn to exit), the server in another: the line it answers with, and how long it took. The TAP stream is gzipped on disk; the reader gunzips only what it reads.',
    '',
    '| Report | Size (unzipped) | On disk | Answered in | Line |',
    '|---|---|---|---|---|',
    ...out.uploadBounds.rows.map(
      (r) =>
        `| ${r.name} | ${mb(r.bytes)} | ${mb(r.onDisk)} | ${seconds(r.ms)} | ${r.line.replace(/\|/g, '\\|')} |`,
    ),
    '',
  );
}

if (out.pages) {
  md.push(
    `## 9. The local server's pages: ${runsPage.summary(out.pages)}`,
    '',
    `A data file generated once (10 projects, 3 frameworks, ${runsPage.RESULTS_PER_RUN} results a run), loaded by \`createServer({ dataFile })\` in the bench's own process; each page fetched over loopback 3 times to warm up, then 15 times.`,
    '',
    '| Page | Median | Slowest | Size |',
    '|---|---|---|---|',
    ...out.pages.rows.map((r) => `| ${r.name} | ${ms(r.medianMs)} | ${ms(r.maxMs)} | ${mb(r.bytes)} |`),
    '',
  );
}

if (out.scale) md.push(...serverScale.section(out.scale));
if (out.shards) md.push(...shardPlans.lines(out.shards));

if (out.profile) {
  const p = out.profile;
  md.push(
    '## Profile: core throughput run (`node --cpu-prof`, per-file adding, warm-up + 3 × 100,000 results)',
    '',
    `${p.totalMs} ms of non-idle samples. Profile: \`bench/${p.file.split('/bench/')[1]}\`.`,
    '',
    '| Self time by package | ms | % |',
    '|---|---|---|',
    ...p.packages.slice(0, 8).map((x) => `| ${x.name} | ${x.selfMs} | ${(x.pct * 100).toFixed(1)}% |`),
    '',
    '| Hottest functions (self time) | Where | ms | % |',
    '|---|---|---|---|',
    ...p.functions.map(
      (f) =>
        `| \`${f.name}\` | ${f.file}${f.file ? `:${f.line}` : ''} | ${f.selfMs} | ${(f.pct * 100).toFixed(1)}% |`,
    ),
    '',
    '| Core step (inclusive time) | ms | % |',
    '|---|---|---|',
    ...p.steps.map((s) => `| \`${s.function}\` | ${s.inclusiveMs} | ${(s.pct * 100).toFixed(1)}% |`),
    '',
  );
}

if (problems.length > 0) {
  md.push('## Problems', '', ...problems.map((p) => `- ${p.replaceAll('\n', ' ')}`), '');
}

const text = md.join('\n');
console.log(`\n${text}`);
if (full || values.write) {
  fs.writeFileSync(new URL('./results.md', import.meta.url), text);
  console.log('written to bench/results.md');
} else {
  console.log('(partial run: bench/results.md left as it was; --write to overwrite it)');
}
