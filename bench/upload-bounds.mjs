// Figure 6b: how fast `testrun upload` answers a report past its bounds (docs/tap.md#limits;
// docs/junit.md and docs/ctrf.md): a TAP stream nested 10,000 subtests deep (600 MB of
// indentation, gzipped to a few MB: the reader gunzips only what it reads), and JUnit XML and
// CTRF JSON nested a million levels deep. Before the bounds, the TAP stream ran past two
// minutes and 388 MB, the CTRF report for minutes. Each upload is the CLI in a fresh process
// (bin/testrun.js), the server in another; the wall time is the whole process, from spawn to
// exit. Run alone: node bench/upload-bounds.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { startServer } from './lib/server.mjs';
import { mb, seconds } from './lib/stats.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const generated = path.join(here, '.generated', 'bounds');
const CLI = path.join(here, '..', 'packages', 'cli', 'bin', 'testrun.js');

/** The answer a report past its bound must get within TARGET_MS: its code in the line. */
export const TARGET_MS = 10_000;

/** node-tap's shape, TAP 14, nested `depth` subtests deep, every level closed: a whole stream. */
function* deepTap(depth) {
  yield 'TAP version 14\n';
  for (let d = 0; d < depth; d++) yield `${'    '.repeat(d)}# Subtest: level ${d}\n`;
  yield `${'    '.repeat(depth)}ok 1 - deepest\n${'    '.repeat(depth)}1..1\n`;
  for (let d = depth - 1; d >= 0; d--)
    yield `${'    '.repeat(d)}ok 1 - level ${d}\n${'    '.repeat(d)}1..1\n`;
}

function* deepJunit(depth) {
  yield '<testsuites>\n';
  for (let i = 0; i < depth; i += 1_000) yield '<testsuite name="s">'.repeat(Math.min(1_000, depth - i));
  for (let i = 0; i < depth; i += 1_000) yield '</testsuite>'.repeat(Math.min(1_000, depth - i));
  yield '\n</testsuites>\n';
}

function* deepCtrf(depth) {
  yield '{"results":{"tool":{"name":"bench"},"tests":[{"name":"a","status":"passed","duration":1}]},\n"extra":';
  for (let i = 0; i < depth; i += 1_000) yield '['.repeat(Math.min(1_000, depth - i));
  for (let i = 0; i < depth; i += 1_000) yield ']'.repeat(Math.min(1_000, depth - i));
  yield '}\n';
}

const REPORTS = [
  {
    name: 'TAP nested 10,000 subtests deep',
    file: 'deep-10000.tap.gz',
    lines: () => deepTap(10_000),
    gzip: true,
    code: 'TAP_TOO_DEEP',
  },
  {
    name: 'JUnit XML nested 1,000,000 deep',
    file: 'deep-1000000.xml',
    lines: () => deepJunit(1_000_000),
    gzip: false,
    code: 'JUNIT_TOO_DEEP',
  },
  {
    name: 'CTRF nested 1,000,000 deep',
    file: 'deep-1000000.json',
    lines: () => deepCtrf(1_000_000),
    gzip: false,
    code: 'CTRF_TOO_DEEP',
  },
];

/** Writes a report once (reused when it exists); returns its path and how many bytes it holds unzipped. */
async function generate(report) {
  const file = path.join(generated, report.file);
  const sizeFile = `${file}.bytes`;
  if (fs.existsSync(file) && fs.existsSync(sizeFile))
    return { file, bytes: Number(fs.readFileSync(sizeFile, 'utf8')) };
  fs.mkdirSync(generated, { recursive: true });
  let bytes = 0;
  const counted = async function* () {
    for (const text of report.lines()) {
      bytes += Buffer.byteLength(text);
      yield text;
    }
  };
  const out = fs.createWriteStream(`${file}.tmp`);
  await (report.gzip ? pipeline(counted, createGzip({ level: 6 }), out) : pipeline(counted, out));
  fs.renameSync(`${file}.tmp`, file);
  fs.writeFileSync(sizeFile, String(bytes));
  return { file, bytes };
}

/** `testrun upload <file>` in a fresh process: its exit code, stderr and wall time. */
function upload(file, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'upload', file, '--project', 'bounds'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, ms: performance.now() - started }));
  });
}

export async function run({ log = console.log } = {}) {
  const server = await startServer();
  const rows = [];
  const problems = [];
  try {
    for (const report of REPORTS) {
      const { file, bytes } = await generate(report);
      const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-bounds-'));
      const outcome = await upload(file, {
        TESTRUN_API_KEY: server.apiKey,
        TESTRUN_BASE_URL: server.url,
        TESTRUN_SPOOL_DIR: spool,
      });
      fs.rmSync(spool, { recursive: true, force: true });
      const line = outcome.stderr.split('\n').find((text) => text.includes('levels deep')) ?? '';
      const answered = outcome.code === 1 && line !== '';
      if (!answered)
        problems.push(
          `${report.name}: exit ${outcome.code}, no line saying it nests too deep:\n${outcome.stderr}`,
        );
      const row = {
        name: report.name,
        bytes,
        onDisk: fs.statSync(file).size,
        ms: outcome.ms,
        line,
        met: answered && outcome.ms <= TARGET_MS,
      };
      log(
        `  ${report.name} (${mb(bytes)}, ${mb(row.onDisk)} on disk): answered in ${seconds(row.ms)}: ${line}`,
      );
      rows.push(row);
    }
    return { rows, problems };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = await run();
  for (const problem of outcome.problems) console.log('PROBLEM:', problem);
}
