// Figure 9: the local server's pages with 10,000 runs and 1,000,000 results. The server
// starts in this process from a data file generated once under bench/.generated/ (the file
// `testrun serve --data` keeps), so loading it is measured too; every page is then fetched
// over loopback, a few times to warm up, then ROUNDS times.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createServer } from '@testrun/server';
import { PROJECTS, RESULTS_PER_RUN, resultsOf, runBody } from './lib/bench-runs.mjs';
import { int, max, mb, median, ms } from './lib/stats.mjs';

export const RUNS = 10_000;
export { RESULTS_PER_RUN } from './lib/bench-runs.mjs';

const ROUNDS = 15;
const WARM_UP = 3;
const API_KEY = 'bench-pages-key';
const generatedDir = fileURLToPath(new URL('./.generated/', import.meta.url));

/** Every page a user opens, and the read API's list, with what each one has to go through. */
function pagesToFetch(lastRunId) {
  const test = new URLSearchParams({
    project: 'project-3',
    suite: 'src/module-0.test.ts',
    test: 'module 0 > case 0',
  });
  return [
    { name: 'runs list, first page (50 of 10,000)', path: '/' },
    { name: 'runs list, one project (1,000 runs)', path: '/?project=project-3' },
    { name: 'runs list, by tag, page 20', path: '/?tag=nightly&page=20' },
    { name: 'runs list, last page', path: `/?page=${RUNS / 50}` },
    { name: `run page (${RESULTS_PER_RUN} results)`, path: `/runs/${lastRunId}` },
    { name: 'run page, searched', path: `/runs/${lastRunId}?q=module+7` },
    { name: "test page (the project's last 30 runs)", path: `/test?${test}` },
    { name: 'flaky tests, one project (its last 20 runs)', path: '/flaky?project=project-3' },
    { name: `flaky tests, all ${PROJECTS} projects`, path: '/flaky' },
    { name: 'read API: GET /api/v1/runs (all 10,000 runs, JSON)', path: '/api/v1/runs' },
  ];
}

export async function run({ log = () => {} } = {}) {
  const dataFile = path.join(generatedDir, `pages-${RUNS}x${RESULTS_PER_RUN}.ndjson`);
  if (!fs.existsSync(dataFile)) {
    log(`  generating ${dataFile}`);
    writeDataFile(dataFile);
  }
  // The server imports the ndjson file into a database in `<file>.d` once; removing that
  // folder first makes every bench measure the import.
  fs.rmSync(`${dataFile}.d`, { recursive: true, force: true });
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStart = performance.now();
  const server = await createServer({ apiKeys: [API_KEY], dataFile });
  const loadMs = performance.now() - loadStart;
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  const runs = await server.store.runs();
  const stored = { runs: runs.length, results: (await server.store.allResults()).length };
  const problems = [];
  if (stored.runs !== RUNS || stored.results !== RUNS * RESULTS_PER_RUN) {
    problems.push(`data file holds ${stored.runs} runs and ${stored.results} results`);
  }

  const rows = [];
  try {
    for (const page of pagesToFetch(runs.at(-1).id)) {
      const times = [];
      let bytes = 0;
      for (let round = 0; round < WARM_UP + ROUNDS; round++) {
        const started = performance.now();
        const response = await fetch(`${server.url}${page.path}`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        });
        const body = await response.text();
        const elapsed = performance.now() - started;
        if (response.status !== 200) problems.push(`${page.path} answered ${response.status}`);
        if (round >= WARM_UP) times.push(elapsed);
        bytes = Buffer.byteLength(body);
      }
      rows.push({ ...page, medianMs: median(times), maxMs: max(times), bytes });
      log(`  ${page.name}: ${ms(median(times))}`);
    }
  } finally {
    await server.close();
  }
  return { loadMs, heapGrowth, fileBytes: fs.statSync(dataFile).size, stored, rows, problems };
}

/** The runs of lib/bench-runs.mjs as an older server's data file, a minute apart: the same file every time. */
function writeDataFile(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const fd = fs.openSync(partial, 'w');
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < RUNS; i++) {
    const run = {
      id: `run-${String(i).padStart(5, '0')}`,
      ...runBody(i),
      createdAt: new Date(start + i * 60_000).toISOString(),
    };
    const results = resultsOf(i);
    fs.writeSync(
      fd,
      `${JSON.stringify({ type: 'run', run })}\n${JSON.stringify({ type: 'results', runId: run.id, results })}\n`,
    );
  }
  fs.closeSync(fd);
  fs.renameSync(partial, file);
}

export function summary({ loadMs, heapGrowth, fileBytes, stored }) {
  return `${int(stored.runs)} runs, ${int(stored.results)} results (${mb(fileBytes)} data file, loaded in ${ms(loadMs)}, heap +${mb(heapGrowth)})`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await run({ log: console.log });
  console.log(summary(out));
  console.table(
    out.rows.map((r) => ({ page: r.name, median: ms(r.medianMs), max: ms(r.maxMs), size: mb(r.bytes) })),
  );
  if (out.problems.length > 0) console.log('problems:', out.problems);
}
