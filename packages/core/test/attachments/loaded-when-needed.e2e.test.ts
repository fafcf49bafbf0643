import fs from 'node:fs';
import { runNodeScript, startTestServer, tempDir } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

// The attachments' code (dist/attachments.js) is loaded by a run that has a file to send to a
// service that takes files, and by no other: a run without files pays nothing for them
// (docs/design/attachments.md; bench figure 7).

/** A reporter's run from the built core, in a process of its own: one failed result, with or without a file. */
function script(withFile: boolean): string {
  return `
import { RunReporter } from '@testrun/core';
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, spoolDir: process.env.SPOOL },
  framework: { name: 'vitest', version: '4.0.0' },
  rootDir: process.cwd(),
  write: () => {},
});
reporter.startRun();
reporter.addResults([{ testSuite: 'a.test.ts', testCase: 'fails', status: 'failed', duration: 1,
  ${withFile ? "attachments: [{ name: 'stdout', body: 'printed' }]" : ''} }]);
const summary = await reporter.endRun();
console.log(JSON.stringify({ delivered: summary.delivered, files: summary.files ?? null }));`;
}

describe('the attachments’ code', () => {
  it('is loaded by a run that sends a file, and by no run without one', async () => {
    const spool = tempDir('testrun-spool-');
    onTestFinished(() => fs.rmSync(spool, { recursive: true, force: true }));
    const takes = await startTestServer();
    const env = (server: typeof takes) => ({ KEY: server.apiKey, URL: server.url, SPOOL: spool });
    const loaded = (resolved: string[]) => resolved.some((specifier) => /attachments\.js$/.test(specifier));

    const without = await runNodeScript<{ delivered: number; files: unknown }>(script(false), {
      env: env(takes),
    });
    expect(without.result).toEqual({ delivered: 1, files: null });
    expect(without.resolved).toContain('@testrun/core');
    expect(loaded(without.resolved)).toBe(false);

    const sent = await runNodeScript<{ delivered: number; files: unknown }>(script(true), {
      env: env(takes),
    });
    expect(sent.result).toEqual({ delivered: 1, files: { sent: 1, bytes: 7, spooled: 0, skipped: 0 } });
    expect(loaded(sent.resolved)).toBe(true);
  });
});
