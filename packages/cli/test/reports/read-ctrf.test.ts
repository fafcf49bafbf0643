import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { tempDir } from '@testrun/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportReadError } from '../../src/reports/open-report.js';
import { type CtrfEvent, MAX_CTRF_DEPTH, readCtrf } from '../../src/reports/read-ctrf.js';
import { eventsOfReport } from './report-events.js';

const dir = tempDir('testrun-read-ctrf-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let written = 0;
function reportFile(content: string | Buffer): string {
  const file = path.join(dir, `report-${written++}.json`);
  fs.writeFileSync(file, content);
  return file;
}

function eventsOf(file: string): Promise<CtrfEvent[]> {
  return eventsOfReport(file, 'reports/ctrf.json', 'ctrf', readCtrf);
}

async function readError(file: string): Promise<ReportReadError> {
  const error = await eventsOf(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ReportReadError);
  return error as ReportReadError;
}

const REPORT = JSON.stringify({
  results: {
    tests: [
      { name: 'a', status: 'passed', duration: 1, suite: 'S', filePath: 'a.test.ts', message: 'x' },
      { name: 'b', status: ' Failed ', duration: 2 },
    ],
    tool: { name: ' jest ' },
  },
});

describe('reading a CTRF report', () => {
  it('yields each test with what the mapping needs, and the tool where it comes, even after the tests', async () => {
    expect(await eventsOf(reportFile(REPORT))).toEqual([
      {
        kind: 'test',
        test: {
          index: 0,
          name: 'a',
          status: 'passed',
          rawStatus: undefined,
          duration: 1,
          suite: 'S',
          filePath: 'a.test.ts',
        },
      },
      {
        kind: 'test',
        test: {
          index: 1,
          name: 'b',
          status: 'failed',
          rawStatus: undefined,
          duration: 2,
          suite: undefined,
          filePath: undefined,
        },
      },
      { kind: 'tool', name: 'jest' },
    ]);
  });

  it('reads gzip, a UTF-8 byte order mark and UTF-16 alike', async () => {
    const expected = await eventsOf(reportFile(REPORT));
    expect(await eventsOf(reportFile(gzipSync(REPORT)))).toEqual(expected);
    expect(await eventsOf(reportFile(`\uFEFF${REPORT}`))).toEqual(expected);
    expect(
      await eventsOf(reportFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(REPORT, 'utf16le')]))),
    ).toEqual(expected);
  });

  it('accepts a report of no tests that says it is CTRF', async () => {
    expect(await eventsOf(reportFile('{"reportFormat":"CTRF","results":{"tests":[]}}\n\n'))).toEqual([]);
  });

  it('names the line and column of a syntax error past the first 64 KB chunk', async () => {
    const tests = Array.from({ length: 2000 }, (_, i) => `{"name":"t${i}","status":"passed","duration":1}`);
    const text = `{"results":{"tests":[\n${tests.join(',\n')},\n{"name": nope}]}}`;
    expect(text.length).toBeGreaterThan(64 * 1024);
    const error = await readError(reportFile(text));
    expect(error.code).toBe('CTRF_MALFORMED');
    expect(error.message).toBe('reports/ctrf.json:2002:11: not well-formed JSON (unexpected "o").');
    expect(error.line).toBe(2002);
  });

  it('refuses JSON after the report, a test that is not an object, and tests that are not an array', async () => {
    expect((await readError(reportFile('{"results":{"tests":[]},"reportFormat":"CTRF"}\n{}'))).message).toBe(
      'reports/ctrf.json:2:1: not well-formed JSON (unexpected "{").',
    );
    expect((await readError(reportFile('{"results":{"tests":["a"]}}'))).message).toBe(
      'reports/ctrf.json: results.tests[0] is a string, not a test object.',
    );
    const notArray = await readError(
      reportFile('{"results":{"tests":{"a":{"name":"a","status":"passed"}}}}'),
    );
    expect([notArray.code, notArray.message]).toEqual([
      'CTRF_NOT_CTRF',
      'reports/ctrf.json: not a CTRF report: its results.tests is an object, not an array. Give testrun upload JUnit XML, CTRF JSON or TAP reports.',
    ]);
  });

  it('refuses an empty file', async () => {
    expect((await readError(reportFile(''))).message).toBe('reports/ctrf.json: the file is empty.');
  });

  // The parser looks at every level above a value it drops: 100,000 levels took 7.5 s, a million minutes.
  it('refuses objects and arrays nested deeper than 1,000 levels at the first one past them, reading no further', async () => {
    const deep = `{"results":{"tests":[]},\n"extra":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`;
    expect(await readError(reportFile(deep))).toMatchObject({
      code: 'CTRF_TOO_DEEP',
      line: 2,
      message:
        'reports/ctrf.json:2:1008: its objects and arrays nest more than 1,000 levels deep; testrun upload reads CTRF nested up to 1,000 levels. Write the report with fewer levels.',
    });
    const within = `{"results":{"tests":[{"name":"a","status":"passed","extra":${'['.repeat(MAX_CTRF_DEPTH - 5)}${']'.repeat(MAX_CTRF_DEPTH - 5)}}]}}`;
    expect(await eventsOf(reportFile(within))).toEqual([
      { kind: 'test', test: expect.objectContaining({ name: 'a', status: 'passed' }) },
    ]);
  });
});
