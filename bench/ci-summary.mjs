// Figure 13: the CI summary of a run of 100,000 results whose names and messages are 10 KB of
// Markdown and HTML each: what it costs to tally them as they go by and to write the summary
// (core's own summary bundle), and how large it is. GitHub takes 1 MiB; the issue asks < 2 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { appendSummary, RunTally, renderSummary } from '../packages/core/dist/summary/index.js';

const HOSTILE = [
  'a | b',
  '`code`',
  '</details>',
  '<img src=x onerror=alert(1)>',
  '[link](javascript:alert(1))',
];
const RESULTS = 100_000;

export async function run() {
  const words = { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' };
  const padding = 'x'.repeat(10_000);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-summary-')), 'summary.md');
  const started = performance.now();
  const tally = new RunTally(words);
  for (let index = 0; index < RESULTS; index++) {
    const name = `${HOSTILE[index % HOSTILE.length]}${padding}${index}`;
    const failed = index % 3 === 0;
    tally.add({
      testSuite: name,
      testCase: name,
      status: failed ? 'failed' : 'passed',
      duration: index % 997,
      details: failed ? { message: name } : { attempts: 2 },
    });
  }
  const tallied = performance.now();
  const markdown = renderSummary({
    project: 'web',
    framework: 'vitest',
    runId: 'r',
    pageUrl: 'https://testrun.example.com/runs/r',
    state: 'failed',
    tally: tally.toJSON(),
    durationMs: 1,
    covers: { whole: true },
    statusWords: words,
  });
  appendSummary(file, markdown);
  const written = performance.now();
  const bytes = fs.statSync(file).size;
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return { results: RESULTS, tallyMs: tallied - started, writeMs: written - tallied, bytes };
}
