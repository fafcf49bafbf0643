import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { tempDir } from '@testrun/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { openReport } from '../../src/reports/open-report.js';

const dir = tempDir('testrun-open-report-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let written = 0;
function reportFile(content: string | Buffer): string {
  const file = path.join(dir, `report-${written++}`);
  fs.writeFileSync(file, content);
  return file;
}

/** The format openReport tells, and the bytes its reader gets. */
async function opened(content: string | Buffer) {
  const report = await openReport(reportFile(content), 'x');
  const chunks: Buffer[] = [];
  for await (const chunk of report.chunks) chunks.push(chunk);
  report.close();
  return { format: report.format, bytes: Buffer.concat(chunks) };
}

describe('telling a report’s format, once, as it is opened', () => {
  it('is CTRF when its first character is {, after whitespace, a byte order mark or gzip', async () => {
    expect((await opened('  \n{"results":{}}')).format).toBe('ctrf');
    expect((await opened(gzipSync('{}'))).format).toBe('ctrf');
    expect((await opened(`\uFEFF{}`)).format).toBe('ctrf');
    const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(' {', 'utf16le').swap16()]);
    expect((await opened(utf16)).format).toBe('ctrf');
  });

  it('is TAP when a line of it is TAP, after output that is not (npm prints its command first)', async () => {
    expect((await opened('TAP version 14\n1..0\n')).format).toBe('tap');
    expect((await opened('\n> shop@1.0.0 test\n> ava --tap\n\nTAP version 13\nok 1 - adds\n')).format).toBe(
      'tap',
    );
    expect((await opened('1..2\nok 1\nnot ok 2\n')).format).toBe('tap');
    expect((await opened(gzipSync('# Subtest: cart\n    ok 1 - adds\n'))).format).toBe('tap');
    // Text that merely mentions TAP is not TAP.
    expect((await opened('okay then\nTAP version thirteen\n')).format).toBe('junit');
  });

  it('is JUnit for XML and for anything else, whose reader then says what it is not', async () => {
    expect((await opened('<?xml version="1.0"?><testsuites/>')).format).toBe('junit');
    expect((await opened('<testsuites>\nok 1 - in a message\n</testsuites>')).format).toBe('junit');
    expect((await opened('')).format).toBe('junit');
    expect((await opened('[1]')).format).toBe('junit');
  });

  it('hands the reader every byte, those it read to tell the format first, gunzipped', async () => {
    const large = `${' '.repeat(200_000)}TAP version 13\n${'ok 1\n'.repeat(50_000)}`;
    expect((await opened(large)).bytes.toString()).toBe(large);
    expect((await opened(gzipSync(large))).bytes.toString()).toBe(large);
    expect((await opened('')).bytes.length).toBe(0);
  });
});
