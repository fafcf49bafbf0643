import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { attachmentFile } from '../../src/reports/attachment-paths.js';
import { mapCtrfTest } from '../../src/reports/map-ctrf.js';
import type { CtrfTest } from '../../src/reports/read-ctrf.js';
import { readJunit } from '../../src/reports/read-junit.js';

// The files a report names for a test: JUnit's `[[ATTACHMENT|path]]` in a testcase's output
// (Jenkins' JUnit Attachments plugin, Azure Pipelines), CTRF's `attachments`.

const dir = tempDir('testrun-report-files-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function attachmentsOf(xml: string, chunk = 7): Promise<(string[] | undefined)[]> {
  const bytes = Buffer.from(xml);
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
  }
  const found: (string[] | undefined)[] = [];
  for await (const events of readJunit(chunks(), 'report.xml')) {
    for (const event of events) if (event.kind === 'testcase') found.push(event.testcase.attachments);
  }
  return found;
}

describe("JUnit's [[ATTACHMENT|path]]", () => {
  it("reads each testcase's marks from its system-out and system-err, whatever the chunks cut, each once", async () => {
    const xml = `<testsuite name="s">
  <testcase name="pays"><failure message="x">boom</failure>
    <system-out>before [[ATTACHMENT|/shots/pays.png]] between
[[ATTACHMENT|logs/pays.txt]]
[[ATTACHMENT|/shots/pays.png]]</system-out>
    <system-err><![CDATA[[[ATTACHMENT|/videos/pays.webm]]]]></system-err>
  </testcase>
  <testcase name="shows"><system-out>no files here [[ATTACHMENT|]] [[attachment|lower.png]]</system-out></testcase>
  <system-out>[[ATTACHMENT|/suite-level.png]]</system-out>
</testsuite>`;
    for (const chunk of [1, 7, 4096]) {
      expect(await attachmentsOf(xml, chunk), `chunks of ${chunk}`).toEqual([
        ['/shots/pays.png', 'logs/pays.txt', '/videos/pays.webm'],
        undefined,
      ]);
    }
  });

  it('looks for a relative path from where upload runs, then beside the report', () => {
    const reportDir = path.join(dir, 'reports');
    fs.mkdirSync(reportDir);
    fs.writeFileSync(path.join(reportDir, 'beside.png'), 'x');
    fs.writeFileSync(path.join(dir, 'here.png'), 'x');
    expect(attachmentFile('here.png', reportDir, dir)).toBe(path.join(dir, 'here.png'));
    expect(attachmentFile('beside.png', reportDir, dir)).toBe(path.join(reportDir, 'beside.png'));
    expect(attachmentFile('/abs/shot.png', reportDir, dir)).toBe('/abs/shot.png');
  });
});

describe("CTRF's attachments", () => {
  const test = (attachments: unknown): CtrfTest => ({
    index: 0,
    name: 'pays',
    status: 'failed',
    rawStatus: undefined,
    duration: 1,
    suite: undefined,
    filePath: 'tests/checkout.test.js',
    attachments,
  });

  it('go with the test, each with its name and type, those without a path left out', () => {
    const mapped = mapCtrfTest(
      test([
        { name: 'screenshot', contentType: 'image/png', path: '/shots/pays.png' },
        { name: 'no path', contentType: 'text/plain' },
        'not an object',
      ]),
      dir,
    );
    expect(mapped.kind === 'file' && mapped.test.attachments).toEqual([
      { name: 'screenshot', contentType: 'image/png', path: '/shots/pays.png' },
    ]);
    const none = mapCtrfTest(test(undefined), dir);
    expect(none.kind === 'file' && none.test.attachments).toBeUndefined();
  });
});
