// Shapes of results as a framework hands them to core: per test file, 25 tests each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Core as built (`@testrun/core`), or another build of it named by BENCH_CORE (a path to its
 * dist/index.js), to measure a change side by side without touching packages/.
 */
export const core = await import(
  process.env.BENCH_CORE ? pathToFileURL(process.env.BENCH_CORE).href : '@testrun/core'
);
const { RunReporter } = core;

export const TESTS_PER_FILE = 25;

/** The raw results of test file number `file` (fresh objects, as a framework makes them). */
export function fileResults(file, count = TESTS_PER_FILE) {
  const testSuite = `tests/file-${String(file).padStart(4, '0')}.test.ts`;
  const results = new Array(count);
  for (let t = 0; t < count; t += 1) {
    results[t] = {
      testSuite,
      testCase: `module ${file} > case ${t + 1}`,
      status: t % 50 === 49 ? 'skipped' : 'passed',
      duration: ((file * 31 + t * 7) % 97) / 10,
    };
  }
  return results;
}

/**
 * Test file number `file` as an adapter hands it to core (`RunReporter.addFile`): an absolute
 * path and each test's titles, which core turns into testSuite and testCase.
 */
export function fileReport(file, count = TESTS_PER_FILE) {
  const tests = new Array(count);
  for (let t = 0; t < count; t += 1) {
    tests[t] = {
      titles: [`module ${file}`, `case ${t + 1}`],
      status: t % 50 === 49 ? 'skipped' : 'passed',
      duration: ((file * 31 + t * 7) % 97) / 10,
    };
  }
  return { file: path.join(process.cwd(), 'tests', `file-${String(file).padStart(4, '0')}.test.ts`), tests };
}

/** `total` results split into per-file chunks. */
export function chunksOf(total, perFile = TESTS_PER_FILE) {
  const chunks = [];
  for (let file = 0, left = total; left > 0; file += 1, left -= perFile) {
    chunks.push(fileResults(file, Math.min(perFile, left)));
  }
  return chunks;
}

/** A core RunReporter as the adapters build it, aimed at the local server, quiet. */
export function createReporter({ url, apiKey }, options = {}) {
  const lines = [];
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-spool-'));
  const reporter = new RunReporter({
    options: { apiKey, baseUrl: url, project: 'bench', ciTags: false, spoolDir, ...options },
    framework: { name: 'vitest', version: '4.1.0' },
    rootDir: process.cwd(),
    env: {},
    write: (text) => lines.push(text),
  });
  return {
    reporter,
    lines,
    cleanup: () => fs.rmSync(spoolDir, { recursive: true, force: true }),
  };
}

export const nextTick = () => new Promise((resolve) => setImmediate(resolve));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
