import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closedPortUrl, createReporter, makeResults } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { makeBatch } from '../src/deliver-batch.js';
import { claimSpool, releaseSpool, SpoolWriter } from '../src/spool.js';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-spool-test-'));
const runRecord = () => ({
  type: 'run' as const,
  runId: 'r1',
  run: { project: 'p', framework: 'vitest', tags: [] },
  idempotencyKey: 'create-key',
  baseUrl: 'https://svc.example.com',
  createdAt: new Date().toISOString(),
});
/** Batch n as the spool keeps it… */
const record = (n: number) => ({
  type: 'batch' as const,
  idempotencyKey: `key-${n}`,
  results: [{ testSuite: 's', testCase: `case ${n}`, status: 'passed', duration: n }],
});
/** …and as the session hands it over. */
const batch = (n: number) => makeBatch(record(n).results, record(n).idempotencyKey);

describe('SpoolWriter', () => {
  it('writes under a name replay leaves alone, and hands the file over when closed', () => {
    const dir = tempDir();
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    expect(fs.readdirSync(dir)).toEqual([expect.stringMatching(/\.ndjson\.open$/)]);
    expect(claimSpool(dir).claimed).toEqual([]);
    writer.close();
    expect(fs.readdirSync(dir)).toEqual([path.basename(writer.path!)]);
    expect(writer.path).toMatch(/\.ndjson$/);
  });

  it('creates the directory private to the user whatever the umask', () => {
    const parent = tempDir();
    const previous = process.umask(0);
    try {
      const dir = path.join(parent, 'a', 'b');
      new SpoolWriter(dir, runRecord).writeBatch(batch(1));
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(parent, 'a')).mode & 0o777).toBe(0o700);
      const [file] = fs.readdirSync(dir);
      expect(fs.statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('fails at once with one reason, naming the directory and the fix, for a path mkdir cannot create', () => {
    for (const dir of ['/proc/testrun/spool', path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'f-')), 'x')]) {
      if (!dir.startsWith('/proc')) fs.writeFileSync(dir, 'a file, not a folder');
      const writer = new SpoolWriter(path.join(dir, 'spool'), runRecord);
      const messages = [1, 2, 3].map((n) => {
        try {
          writer.writeBatch(batch(n));
          return 'written';
        } catch (error) {
          return (error as Error).message;
        }
      });
      expect(new Set(messages).size).toBe(1);
      expect(messages[0]).toMatch(
        /^the spool directory .*spool cannot be written \(\w+\), so undelivered results are lost\. Set TESTRUN_SPOOL_DIR/,
      );
    }
  });
});

describe('claimSpool', () => {
  it('gives each closed file to one replay only', () => {
    const dir = tempDir();
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    writer.close();
    const first = claimSpool(dir);
    const second = claimSpool(dir);
    expect(first.claimed).toHaveLength(1);
    expect(second.claimed).toEqual([]);
    expect(first.claimed[0]!.batches).toEqual([record(1)]);
  });

  it('takes over the open file of a writer that died, keeping the batches before a cut last line', () => {
    const dir = tempDir();
    const runLine = { ...runRecord(), pid: 2 ** 22 + 12_345, host: os.hostname() };
    const file = path.join(dir, '2026-01-01T00-00-00-000Z-dead.ndjson.open');
    fs.writeFileSync(file, `${JSON.stringify(runLine)}\n${JSON.stringify(record(1))}\n{"type":"batch","idem`);
    const { claimed } = claimSpool(dir);
    expect(claimed.map((spool) => spool.batches)).toEqual([[record(1)]]);
    claimed[0]!.batches = [];
    releaseSpool(claimed[0]!);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('gives a file back with what is left, under its closed name', () => {
    const dir = tempDir();
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    writer.writeBatch(batch(2));
    writer.close();
    const [spool] = claimSpool(dir).claimed;
    expect(spool!.batches).toEqual([record(1), record(2)]);
    spool!.batches = [record(2)];
    releaseSpool(spool!);
    expect(fs.readdirSync(dir)).toEqual([path.basename(writer.path!)]);
    expect(claimSpool(dir).claimed[0]!.batches).toEqual([record(2)]);
  });
});

describe('a session whose spool cannot be written', () => {
  const notADirectory = () => {
    const file = path.join(tempDir(), 'file');
    fs.writeFileSync(file, '');
    return path.join(file, 'spool');
  };

  it.each([
    ['a path under a file', notADirectory],
    ['a directory no file can be created in', () => '/proc'],
    ['a path under /proc, where recursive mkdir spins', () => '/proc/testrun/spool'],
  ])('says so in one line and counts the results as lost, for %s', async (_what, spoolDir) => {
    const { reporter, lines } = createReporter(await closedPortUrl(), 'key-1234', {
      spoolDir: spoolDir(),
      batchSize: 2,
      flushTimeout: 1000,
      maxRetries: 0,
    });
    reporter.startRun();
    reporter.addResults(makeResults(8));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ spooled: 0, failed: 8 });
    expect(lines.filter((line) => line.includes('cannot be written'))).toHaveLength(1);
    expect(lines.at(-1)).toContain('8 lost');
  });
});
