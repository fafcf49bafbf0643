import fs from 'node:fs';
import path from 'node:path';
import { onlyRun, runCli, startTestServer, uploadCheckout, uploadEnv } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

// Reports of a long CI run, larger than the heap the upload gets, through the real CLI into a
// real server. A scale proof rather than a rule: the readers' rules are proven in
// packages/cli/test/reports/ and the upload's in packages/cli/test/upload*.e2e.test.ts; this
// one stores 100,000 results, which is why it runs in pnpm test:compat.

describe('testrun upload with a CTRF report of 100,000 tests', () => {
  /**
   * A report as jest-ctrf writes a long run, larger than the heap the upload gets: files of
   * 50 tests, every 20th failed with a message and trace, every 10th with captured output.
   */
  async function writeLargeReport(file: string, tests: number): Promise<void> {
    const out = fs.createWriteStream(file);
    const write = (text: string) =>
      out.write(text) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve()));
    await write(
      '{\n  "reportFormat": "CTRF",\n  "results": {\n    "tool": { "name": "jest" },\n    "tests": [\n',
    );
    for (let i = 0; i < tests; i++) {
      const feature = `Feature${Math.floor(i / 50)}`;
      const failed = i % 20 === 0;
      const test = {
        name: `${feature} handles case ${i} when the input is valid`,
        status: failed ? 'failed' : 'passed',
        duration: i % 997,
        suite: `${feature.toLowerCase()}.test.ts > ${feature}`,
        filePath: `/home/runner/work/shop/shop/src/${feature.toLowerCase()}.test.ts`,
        retries: 0,
        flaky: false,
        message: failed ? `expect(received).toBe(expected)\n\nExpected: ${i + 1}\nReceived: ${i}` : undefined,
        trace: failed ? `at Object.<anonymous> (src/${feature}.test.ts:12:5)\n`.repeat(8) : undefined,
        stdout: i % 10 === 5 ? [`processing case ${i} `.padEnd(1000, '.')] : undefined,
      };
      await write(`      ${JSON.stringify(test)}${i < tests - 1 ? ',' : ''}\n`);
    }
    await write('    ]\n  }\n}\n');
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }

  // The bound: V8's old space at 32 MB. The report alone is larger, so a reader that held it
  // (or its tests) whole would run out of memory and crash; the JUnit path of the same
  // size fits in less.
  const HEAP_MB = 32;

  it(`streams it in a heap of ${HEAP_MB} MB and stores every test`, { timeout: 300_000 }, async () => {
    const dir = uploadCheckout();
    onTestFinished(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));
    const report = path.join(dir, 'reports', 'ctrf-report.json');
    await writeLargeReport(report, 100_000);
    expect(fs.statSync(report).size).toBeGreaterThan(HEAP_MB * 1024 * 1024);
    const server = await startTestServer();

    const { code, stderr } = await runCli(['upload', 'reports/ctrf-report.json'], {
      env: uploadEnv(server),
      cwd: dir,
      nodeArgs: [`--max-old-space-size=${HEAP_MB}`],
    });

    expect(code, stderr.slice(-2000)).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run.framework).toBe('jest');
    expect(results).toHaveLength(100_000);
    expect(results.filter((result) => result.status === 'failed')).toHaveLength(5_000);
    expect(
      results.find(
        (result) => result.testCase === 'Feature1999 > handles case 99999 when the input is valid',
      ),
    ).toMatchObject({
      testSuite: 'src/feature1999.test.ts',
      status: 'passed',
    });
  });
});
