// Figure 6: memory of `testrun upload` on a generated JUnit report of 10,000 and 100,000
// testcases (more with --sizes), each upload in a fresh process (upload-memory-child.mjs),
// the server in another. Flat memory means the 100,000 figures are close to the 10,000
// ones; the live heap (after garbage collection) is the one that shows it.
// Run alone: node bench/upload-memory.mjs [--sizes 10000,100000,1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lastJsonLine, runNodeChild } from './lib/node-child.mjs';
import { startServer } from './lib/server.mjs';
import { int, mb } from './lib/stats.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const generated = path.join(here, '.generated', 'junit');
export const SIZES = [10_000, 100_000];
const PER_SUITE = 50;

/**
 * A JUnit report of `testcases` cases, written as Maven Surefire or Gradle would write a
 * long run: suites of 50, every 20th case failed with a stack trace, every 50th skipped,
 * every 10th with captured output. Written in chunks; reused when it already exists.
 */
export async function generateReport(testcases) {
  const file = path.join(generated, `report-${testcases}.xml`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(generated, { recursive: true });
  const out = fs.createWriteStream(`${file}.tmp`);
  const write = (text) =>
    out.write(text) ? undefined : new Promise((resolve) => out.once('drain', resolve));
  await write(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="generated" tests="${testcases}">\n`);
  for (let suite = 0, i = 0; i < testcases; suite++) {
    const classname = `com.example.module${suite % 40}.Feature${suite}Test`;
    await write(`  <testsuite name="${classname}" tests="${PER_SUITE}" time="1.234">\n`);
    for (let n = 0; n < PER_SUITE && i < testcases; n++, i++) {
      const open = `    <testcase classname="${classname}" name="handles case ${i} when the input is valid[${n}]" time="0.${String(i % 997).padStart(3, '0')}"`;
      if (i % 20 === 0) {
        await write(
          `${open}>\n      <failure message="expected &lt;${i}&gt; but was &lt;${i + 1}&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;${i}&gt; but was: &lt;${i + 1}&gt;\n\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)\n\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:197)\n\tat ${classname}.handlesCase(Feature${suite}Test.java:${40 + n})\n</failure>\n    </testcase>\n`,
        );
      } else if (i % 50 === 1) {
        await write(`${open}>\n      <skipped message="not on this platform"/>\n    </testcase>\n`);
      } else if (i % 10 === 5) {
        await write(
          `${open}>\n      <system-out><![CDATA[12:00:0${n % 10}.123 [main] DEBUG ${classname} -- processing case ${i}\n]]></system-out>\n    </testcase>\n`,
        );
      } else {
        await write(`${open}/>\n`);
      }
    }
    await write('  </testsuite>\n');
  }
  await write('</testsuites>\n');
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

export async function run({ sizes = SIZES, log = console.log } = {}) {
  const server = await startServer();
  const rows = [];
  const problems = [];
  try {
    for (const testcases of sizes) {
      const report = await generateReport(testcases);
      const measure = async (live) => {
        const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-upload-'));
        const before = await server.stats();
        const result = lastJsonLine(
          await runNodeChild(
            [...(live ? ['--expose-gc'] : []), path.join(here, 'upload-memory-child.mjs'), report],
            {
              TESTRUN_API_KEY: server.apiKey,
              TESTRUN_BASE_URL: server.url,
              TESTRUN_SPOOL_DIR: spool,
              BENCH_LIVE: live ? '1' : '0',
            },
            'upload child',
          ),
        );
        const after = await server.stats();
        const stored = after.runs.filter((r) => !before.runs.some((b) => b.id === r.id));
        if (result.code !== 0 || stored.length !== 1 || stored[0].results !== testcases) {
          problems.push(
            `upload ${testcases}: exit ${result.code}, stored ${stored.map((r) => r.results).join(', ')}`,
          );
        }
        fs.rmSync(spool, { recursive: true, force: true });
        return result;
      };
      // One run as a user's, one collecting garbage often to see what is really held.
      const natural = await measure(false);
      const { peakLiveHeap } = await measure(true);
      const row = { testcases, bytes: fs.statSync(report).size, ...natural, peakLiveHeap };
      log(
        `  upload ${int(testcases)} testcases (${mb(row.bytes)}): peak RSS ${mb(row.peakRss)}, peak heap ${mb(row.peakHeap)}, ` +
          `live heap after GC at most ${mb(row.peakLiveHeap)} (at start ${mb(row.baselineRss)} RSS, ${mb(row.baselineHeap)} heap), ${(row.ms / 1000).toFixed(1)} s`,
      );
      rows.push(row);
    }
    const stats = await server.stats();
    return { rows, problems, serverErrors: stats.serverErrors };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { sizes: { type: 'string' } } });
  const sizes = values.sizes ? values.sizes.split(',').map(Number) : SIZES;
  const outcome = await run({ sizes });
  console.table(
    outcome.rows.map((r) => ({
      testcases: r.testcases,
      'report MB': +(r.bytes / 1048576).toFixed(1),
      'peak RSS MB': +(r.peakRss / 1048576).toFixed(1),
      'peak heap MB': +(r.peakHeap / 1048576).toFixed(1),
      'live heap MB': +(r.peakLiveHeap / 1048576).toFixed(1),
      seconds: +(r.ms / 1000).toFixed(1),
    })),
  );
  for (const problem of outcome.problems) console.log('PROBLEM:', problem);
}
