import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closedPortUrl, createReporter, makeResults, tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { makeBatch } from '../../src/delivery/deliver-batch.js';
import { claimSpool, releaseSpool, SpoolWriter } from '../../src/spool/spool.js';
import { thisProcess } from '../../src/spool/spool-owner.js';

/** When a replay's --timeout would end: what its claims record. */
const until = () => Date.now() + 60_000;
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
    const dir = tempDir('testrun-spool-test-');
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    expect(fs.readdirSync(dir)).toEqual([expect.stringMatching(/\.ndjson\.open$/)]);
    expect(claimSpool(dir, until()).claimed).toEqual([]);
    writer.close();
    expect(fs.readdirSync(dir)).toEqual([path.basename(writer.path!)]);
    expect(writer.path).toMatch(/\.ndjson$/);
  });

  it('creates the directory private to the user whatever the umask', () => {
    const parent = tempDir('testrun-spool-test-');
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
    const dir = tempDir('testrun-spool-test-');
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    writer.close();
    const first = claimSpool(dir, until());
    const second = claimSpool(dir, until());
    expect(first.claimed).toHaveLength(1);
    expect(second.claimed).toEqual([]);
    expect(first.claimed[0]!.batches).toEqual([record(1)]);
  });

  it('takes over the open file of a writer that died, keeping the batches before a cut last line', () => {
    const dir = tempDir('testrun-spool-test-');
    const runLine = { ...runRecord(), pid: 2 ** 22 + 12_345, host: os.hostname() };
    const file = path.join(dir, '2026-01-01T00-00-00-000Z-dead.ndjson.open');
    fs.writeFileSync(file, `${JSON.stringify(runLine)}\n${JSON.stringify(record(1))}\n{"type":"batch","idem`);
    const { claimed } = claimSpool(dir, until());
    expect(claimed.map((spool) => spool.batches)).toEqual([[record(1)]]);
    claimed[0]!.batches = [];
    releaseSpool(claimed[0]!);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('gives a file back with what is left, under its closed name', () => {
    const dir = tempDir('testrun-spool-test-');
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    writer.writeBatch(batch(2));
    writer.close();
    const [spool] = claimSpool(dir, until()).claimed;
    expect(spool!.batches).toEqual([record(1), record(2)]);
    spool!.batches = [record(2)];
    releaseSpool(spool!);
    expect(fs.readdirSync(dir)).toEqual([path.basename(writer.path!)]);
    expect(claimSpool(dir, until()).claimed[0]!.batches).toEqual([record(2)]);
  });
  it('gives a file back as it was read when what is left cannot be written, never leaving it claimed', () => {
    const dir = tempDir('testrun-spool-test-');
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    writer.writeBatch(batch(2));
    writer.close();
    const before = fs.readFileSync(writer.path!, 'utf8');
    const [spool] = claimSpool(dir, until()).claimed;
    fs.mkdirSync(`${spool!.claim}.tmp`); // where what is left would be written
    spool!.batches = [record(2)];
    expect(() => releaseSpool(spool!)).toThrow(/EISDIR/);
    fs.rmdirSync(`${spool!.claim}.tmp`);
    expect(fs.readdirSync(dir)).toEqual([path.basename(writer.path!)]);
    expect(fs.readFileSync(writer.path!, 'utf8')).toBe(before);
  });
});

describe('claimSpool and the process that holds a file', () => {
  const writeFile = (dir: string, name: string, lines: unknown[]) =>
    fs.writeFileSync(path.join(dir, name), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);

  it("takes over an open file whose writer's pid now belongs to another process", () => {
    const dir = tempDir('testrun-spool-test-');
    const { machine } = thisProcess();
    // Our own pid, with a start time that is not ours: the writer died and the pid came back.
    const writer = { pid: process.pid, host: os.hostname(), processStart: '1', machine };
    writeFile(dir, 'a.ndjson.open', [{ ...runRecord(), ...writer }, record(1)]);
    const scan = claimSpool(dir, until());
    expect(scan.held).toEqual([]);
    expect(scan.claimed.map((spool) => spool.batches)).toEqual([[record(1)]]);
  });

  it('leaves the open file of a writer that is still running alone, saying who holds it', () => {
    const dir = tempDir('testrun-spool-test-');
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    const scan = claimSpool(dir, until());
    expect(scan.claimed).toEqual([]);
    expect(scan.held).toEqual([{ file: writer.path, holder: `a running reporter (pid ${process.pid})` }]);
  });

  it("does not take an earlier version's open file or claim for ours because it names our pid", () => {
    const dir = tempDir('testrun-spool-test-');
    writeFile(dir, 'a.ndjson.open', [{ ...runRecord(), pid: process.pid, host: os.hostname() }, record(1)]);
    writeFile(dir, `b.ndjson.${process.pid}.replaying`, [runRecord(), record(2)]);
    const scan = claimSpool(dir, until());
    expect(scan.claimed.map((spool) => path.basename(spool.file))).toEqual(['a.ndjson', 'b.ndjson']);
  });

  it("leaves another machine's claim alone until a minute after that replay's --timeout ended", () => {
    const dir = tempDir('testrun-spool-test-');
    const inTenMinutes = Date.now() + 10 * 60_000;
    const twoMinutesAgo = Date.now() - 2 * 60_000;
    writeFile(dir, `a.ndjson.1-100-ffffffffffff-${inTenMinutes}.replaying`, [runRecord(), record(1)]);
    writeFile(dir, `b.ndjson.1-100-ffffffffffff-${twoMinutesAgo}.replaying`, [runRecord(), record(2)]);
    const scan = claimSpool(dir, until());
    expect(scan.held).toEqual([
      {
        file: path.join(dir, 'a.ndjson'),
        holder: `a replay on another machine or in another container (pid 1); a replay will take it over after ${new Date(inTenMinutes + 60_000).toISOString()}`,
      },
    ]);
    expect(scan.claimed.map((spool) => spool.batches)).toEqual([[record(2)]]);
  });
});

describe('claimSpool and files whose lines are not what a reporter writes', () => {
  const run = JSON.stringify(runRecord());
  const result = record(1).results[0]!;
  const line = (value: unknown) => JSON.stringify(value);

  it.each([
    ['an empty file', '', 'the file is empty'],
    ['a first line that is a batch', line(record(1)), 'line 1 is not a run record ({"type":"run",…})'],
    ['a first line that is not an object', 'null', 'line 1 is not a run record ({"type":"run",…})'],
    [
      'a run that is a string',
      line({ ...runRecord(), run: 'p' }),
      'line 1: run must be an object, got a string',
    ],
    [
      'tags that are not strings',
      line({ ...runRecord(), run: { project: 'p', framework: 'f', tags: [1] } }),
      'line 1: run.tags must be an array of strings, got an array',
    ],
    [
      'a run id that is a number',
      line({ ...runRecord(), runId: 7 }),
      'line 1: runId must be a non-empty string or null, got a number',
    ],
    ['a line in the middle that is not JSON', `${run}\n{"type":\n${line(record(2))}`, 'line 2 is not JSON'],
    ['a second run record', `${run}\n${run}`, 'line 2 is not a batch record ({"type":"batch",…})'],
    [
      'a batch without a key',
      `${run}\n${line({ ...record(1), idempotencyKey: 5 })}`,
      'line 2: idempotencyKey must be a non-empty string, got a number',
    ],
    [
      'results that are an object',
      `${run}\n${line({ ...record(1), results: {} })}`,
      'line 2: results must be a non-empty array, got an object',
    ],
    [
      'no results',
      `${run}\n\n${line({ ...record(1), results: [] })}`,
      'line 3: results must be a non-empty array, got an empty array',
    ],
    [
      'a result that is a string',
      `${run}\n${line({ ...record(1), results: [result, 'x'] })}`,
      'line 2: results[1] must be an object, got a string',
    ],
    [
      'a result without its duration',
      `${run}\n${line({ ...record(1), results: [{ ...result, duration: undefined }] })}`,
      'line 2: results[0].duration must be a number, got nothing',
    ],
    [
      'a result whose status is empty',
      `${run}\n${line({ ...record(1), results: [{ ...result, status: '' }] })}`,
      'line 2: results[0].status must be a non-empty string, got an empty string',
    ],
    [
      "a run's end with a status a reporter never writes",
      `${run}\n${line({ type: 'complete', status: 'done', idempotencyKey: 'k', request: { method: 'PATCH', path: '/x', body: '{}' } })}`,
      'line 2: status must be completed, failed, interrupted, got a string',
    ],
    [
      "a run's end without its request",
      `${run}\n${line({ type: 'complete', status: 'failed', idempotencyKey: 'k' })}`,
      'line 2: request.method must be PATCH, POST, PUT, got nothing',
    ],
    [
      'a result whose name is a number',
      `${run}\n${line({ ...record(1), results: [{ ...result, testCase: 3 }] })}`,
      'line 2: results[0].testCase must be a string, got a number',
    ],
  ])(
    'sets aside %s as .bad, unchanged, naming the line, and claims the files after it',
    (_what, text, reason) => {
      const dir = tempDir('testrun-spool-test-');
      const bad = path.join(dir, '1999-01-01T00-00-00-000Z-bad00001.ndjson');
      fs.writeFileSync(bad, text);
      const writer = new SpoolWriter(dir, runRecord);
      writer.writeBatch(batch(1));
      writer.close();

      const scan = claimSpool(dir, until());
      expect(scan.setAside).toEqual([{ file: `${bad}.bad`, reason }]);
      expect(scan.claimed.map((spool) => spool.batches)).toEqual([[record(1)]]);
      expect(fs.readFileSync(`${bad}.bad`, 'utf8')).toBe(text);
      expect(claimSpool(dir, until()).badFiles).toEqual([`${bad}.bad`]);
    },
  );

  it("keeps the run's end after the batches, and the file while only the end is left", () => {
    const dir = tempDir('testrun-spool-test-');
    const writer = new SpoolWriter(dir, runRecord);
    writer.writeBatch(batch(1));
    const end = {
      status: 'interrupted' as const,
      idempotencyKey: 'end-key',
      request: { method: 'PATCH' as const, path: '/api/v1/runs/{runId}', body: '{"status":"{status}"}' },
    };
    writer.writeComplete(end);
    writer.close();
    const [spool] = claimSpool(dir, until()).claimed;
    expect(spool!.batches).toEqual([record(1)]);
    expect(spool!.complete).toEqual({ type: 'complete', ...end });
    spool!.batches = [];
    releaseSpool(spool!);
    const [again] = claimSpool(dir, until()).claimed;
    expect(again!.complete).toEqual({ type: 'complete', ...end });
    again!.complete = undefined;
    releaseSpool(again!);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('reads fields it does not know, from an earlier or a later version, and keeps them', () => {
    const dir = tempDir('testrun-spool-test-');
    const later = { ...runRecord(), runId: null, addedLater: { x: 1 } };
    const laterBatch = { ...record(1), note: 'kept', results: [{ ...result, error: 'kept too' }] };
    fs.writeFileSync(path.join(dir, 'a.ndjson'), `${line(later)}\n${line(laterBatch)}\n`);
    const [spool] = claimSpool(dir, until()).claimed;
    expect(spool!.run).toEqual(later);
    expect(spool!.batches).toEqual([laterBatch]);
    releaseSpool(spool!);
    expect(fs.readFileSync(path.join(dir, 'a.ndjson'), 'utf8')).toBe(`${line(later)}\n${line(laterBatch)}\n`);
  });
});

describe('a session whose spool cannot be written', () => {
  const notADirectory = () => {
    const file = path.join(tempDir('testrun-spool-test-'), 'file');
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
