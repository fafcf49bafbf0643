import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FaultRequest } from '@testrun/server';
import { createReporter, readSpoolLines, startTestServer, tempDir } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AttachmentStage } from '../../src/attachments/stage.js';
import { openService } from '../../src/delivery/service.js';
import { resolveConfig } from '../../src/options/config.js';
import { RunSession } from '../../src/run-session.js';
import { replaySpool } from '../../src/spool/replay.js';
import type { RawResult } from '../../src/types.js';

// A run's attached files, from core's hands to a real server (docs/design/attachments.md):
// uploaded beside the batches where the service announces `attachments`, each file once, the
// run's end waiting for them; a file that cannot go is one line, never a lost result.

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A folder of files for the tests to attach, removed when the test ends. */
function filesDir(): string {
  const dir = tempDir('testrun-attached-');
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function writeFile(dir: string, name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function serverSeeing(options: Parameters<typeof startTestServer>[0] = {}) {
  const seen: FaultRequest[] = [];
  const faults = { failUploads: false };
  const started = await startTestServer({
    ...options,
    faults: (request) => {
      seen.push(request);
      return faults.failUploads && request.route === 'uploadAttachment' ? { status: 503 } : undefined;
    },
  });
  return {
    ...started,
    seen,
    faults,
    uploads: () => seen.filter((request) => request.route === 'uploadAttachment'),
  };
}

function results(screenshot: string): RawResult[] {
  return [
    {
      testSuite: 'e2e/checkout.test.ts',
      testCase: 'pays',
      status: 'failed',
      duration: 5,
      attachments: [
        { name: 'screenshot', path: screenshot, attempt: 1 },
        { name: 'stdout', body: 'paying\n', contentType: 'text/plain' },
      ],
    },
    {
      testSuite: 'e2e/checkout.test.ts',
      testCase: 'retries',
      status: 'passed',
      duration: 5,
      attempts: 2,
      attachments: [{ name: 'screenshot', path: screenshot, attempt: 1 }],
    },
    {
      testSuite: 'e2e/checkout.test.ts',
      testCase: 'shows the total',
      status: 'passed',
      duration: 5,
      attachments: [{ name: 'screenshot', body: Buffer.from('a passing test’s screenshot') }],
    },
  ];
}

describe('a run whose service announces attachments', () => {
  it('uploads the files of failed tests, and of a test that passed on a retry, each once, before the run is completed', async () => {
    const { server, url, apiKey, uploads, seen } = await serverSeeing();
    const shot = writeFile(filesDir(), 'shot.png', PNG);
    const { reporter, lines } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults(results(shot));
    const summary = await reporter.endRun();

    const stored = await server.store.results(summary!.runId!);
    const byCase = Object.fromEntries(stored.map((result) => [result.testCase, result.attachments]));
    expect(byCase).toEqual({
      pays: [
        { name: 'screenshot', contentType: 'image/png', size: PNG.length, sha256: sha256(PNG), attempt: 1 },
        { name: 'stdout', contentType: 'text/plain', size: 7, sha256: sha256('paying\n') },
      ],
      retries: [
        { name: 'screenshot', contentType: 'image/png', size: PNG.length, sha256: sha256(PNG), attempt: 1 },
      ],
      'shows the total': undefined,
    });
    // The screenshot both results name went once; the passing test's stayed home.
    expect(
      uploads()
        .map((request) => request.path.split('/').at(-1))
        .sort(),
    ).toEqual([sha256(PNG), sha256('paying\n')].sort());
    // Uploaded before the run's end.
    const end = seen.findIndex((request) => request.route === 'completeRun');
    expect(seen.findLastIndex((request) => request.route === 'uploadAttachment')).toBeLessThan(end);
    expect(summary).toMatchObject({
      delivered: 3,
      spooled: 0,
      files: { sent: 2, bytes: PNG.length + 7, spooled: 0, skipped: 0 },
    });
    expect(lines.at(-1)).toMatch(/; 2 files uploaded \(77 B\)$/);
    const bytes = await fetch(`${url}/api/v1/runs/${summary!.runId}/attachments/${sha256(PNG)}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("uploads every test's files with attachments: 'all', none with 'none'", async () => {
    const shot = writeFile(filesDir(), 'shot.png', PNG);
    const all = await serverSeeing();
    const everything = createReporter(all.url, all.apiKey, { attachments: 'all' });
    everything.reporter.startRun();
    everything.reporter.addResults(results(shot));
    await everything.reporter.endRun();
    expect(all.uploads()).toHaveLength(3);

    const none = await serverSeeing();
    const nothing = createReporter(none.url, none.apiKey, { attachments: 'none' });
    nothing.reporter.startRun();
    nothing.reporter.addResults(results(shot));
    const summary = await nothing.reporter.endRun();
    expect(none.uploads()).toEqual([]);
    expect(summary?.files).toBeUndefined();
    expect((await none.server.store.results(summary!.runId!)).every((result) => !result.attachments)).toBe(
      true,
    );
  });

  it('sends a file over maxAttachmentSize, or over the limit the service announced, not at all: one line each, and the result without it', async () => {
    const dir = filesDir();
    const big = writeFile(dir, 'video.webm', Buffer.alloc(3000, 7));
    const { server, url, apiKey, uploads } = await serverSeeing({ maxAttachmentBytes: 2000 });
    const { reporter, lines } = createReporter(url, apiKey, { maxAttachmentSize: '1KB' });
    reporter.startRun();
    reporter.addResults([
      {
        testSuite: 'a.test.ts',
        testCase: 'records',
        status: 'failed',
        duration: 1,
        attachments: [{ name: 'video', path: big }],
      },
    ]);
    const summary = await reporter.endRun();
    expect(lines).toContain(
      'testrun: attachment "video" of "a.test.ts > records" is 2.9 KB, over the maxAttachmentSize option (1 KB): not uploaded; the result is sent without it',
    );
    expect(summary).toMatchObject({ delivered: 1, files: { sent: 0, skipped: 1 } });
    expect(uploads()).toEqual([]);

    const second = createReporter(url, apiKey);
    second.reporter.startRun();
    second.reporter.addResults([
      {
        testSuite: 'a.test.ts',
        testCase: 'records',
        status: 'failed',
        duration: 1,
        attachments: [{ name: 'video', path: big }],
      },
    ]);
    const stored = await second.reporter.endRun();
    expect(second.lines).toContain(
      `testrun: attachment "video" of "a.test.ts > records" is 2.9 KB, over the service's limit for a file (2 KB): not uploaded; the result is sent without it`,
    );
    expect((await server.store.results(stored!.runId!))[0]).toMatchObject({ status: 'failed' });
    expect((await server.store.results(stored!.runId!))[0]).not.toHaveProperty('attachments');
  });

  it('says in one line that the service refused a file as too large when its limit was not known, and keeps the result', async () => {
    const big = writeFile(filesDir(), 'trace.zip', Buffer.alloc(3000, 1));
    const { server, url, apiKey } = await serverSeeing({ maxAttachmentBytes: 2000 });
    const created = await fetch(`${url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'shop', framework: 'vitest' }),
    });
    const { id } = (await created.json()) as { id: string };
    // A shard's handle that says the service takes files, but not its limits.
    const { reporter, lines } = createReporter(url, apiKey, { runId: `${id};extensions=attachments` });
    reporter.startRun();
    reporter.addResults([
      {
        testSuite: 'a.test.ts',
        testCase: 'traces',
        status: 'failed',
        duration: 1,
        attachments: [{ name: 'trace', path: big }],
      },
    ]);
    const summary = await reporter.endRun();
    const said = lines.filter((line) => line.includes('attachment "trace"'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^testrun: attachment "trace" of "a\.test\.ts > traces" \(2\.9 KB\) was refused by the service as too large: PUT \S+ answered 413: .*this server keeps files of at most 2000 bytes.*; the result is stored without it$/,
    );
    expect(summary).toMatchObject({ delivered: 1, spooled: 0, files: { skipped: 1 } });
    const [stored] = await server.store.results(id);
    expect(stored?.attachments?.map((file) => file.name)).toEqual(['trace']);
  });

  it('sends what a test printed without the API key in it, as it sends why it failed', async () => {
    const { url, apiKey } = await serverSeeing();
    const { reporter } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults([
      {
        testSuite: 'a.test.ts',
        testCase: 'leaks',
        status: 'failed',
        duration: 1,
        attachments: [{ name: 'stdout', body: `calling with ${apiKey} and ${encodeURIComponent(apiKey)}\n` }],
      },
    ]);
    const summary = await reporter.endRun();
    const [listed] = (await (
      await fetch(`${url}/api/v1/runs/${summary!.runId}/results`, {
        headers: { authorization: `Bearer ${apiKey}` },
      })
    ).json()) as { attachments: { url: string }[] }[];
    const printed = await fetch(`${url}${listed!.attachments[0]!.url}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const text = await printed.text();
    expect(text).toMatch(/^calling with \S+ and \S+\n$/);
    expect(text).not.toContain(apiKey);
  });

  it('says which file is gone or not a path, and sends the result', async () => {
    const { server, url, apiKey, uploads } = await serverSeeing();
    const { reporter, lines } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults([
      {
        testSuite: 'a.test.ts',
        testCase: 'fails',
        status: 'failed',
        duration: 1,
        attachments: [
          { name: 'screenshot', path: path.join(os.tmpdir(), 'no-such-file-7c1.png') },
          { name: 'log', path: 'relative/log.txt' },
        ],
      },
    ]);
    const summary = await reporter.endRun();
    expect(lines.slice(0, 2)).toEqual([
      'testrun: attachment "screenshot" of "a.test.ts > fails" is gone (its file no longer exists): not uploaded',
      'testrun: attachment "log" of "a.test.ts > fails" names a relative path (relative/log.txt): not uploaded',
    ]);
    expect(uploads()).toEqual([]);
    expect(await server.store.results(summary!.runId!)).toHaveLength(1);
  });
});

describe('a run whose service says nothing of attachments', () => {
  it('sends exactly the bytes it sent before attachments existed, and no file', async () => {
    const shot = writeFile(filesDir(), 'shot.png', PNG);
    const { url, apiKey, seen, uploads } = await serverSeeing({ attachments: false, failureDetails: false });
    const { reporter, lines } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults(results(shot));
    const summary = await reporter.endRun();
    const bodies = seen.filter((r) => r.route === 'submitResults').map((r) => JSON.stringify(r.body));
    expect(bodies.sort()).toEqual(
      [
        '{"results":[{"testSuite":"e2e/checkout.test.ts","testCase":"shows the total","status":"passed","duration":5}]}',
        '{"results":[{"testSuite":"e2e/checkout.test.ts","testCase":"pays","status":"failed","duration":5},{"testSuite":"e2e/checkout.test.ts","testCase":"retries","status":"passed","duration":5}]}',
      ].sort(),
    );
    expect(uploads()).toEqual([]);
    expect(summary?.files).toEqual({ sent: 0, bytes: 0, spooled: 0, skipped: 0 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/file/);
  });

  it('says once that a bare run id leaves it unknown whether files are taken, and sends none', async () => {
    const { url, apiKey, uploads } = await serverSeeing();
    const created = await fetch(`${url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'shop', framework: 'vitest' }),
    });
    const { id } = (await created.json()) as { id: string };
    const shot = writeFile(filesDir(), 'shot.png', PNG);
    const { reporter, lines } = createReporter(url, apiKey, { runId: id });
    reporter.startRun();
    reporter.addResults(results(shot));
    await reporter.endRun();
    expect(uploads()).toEqual([]);
    expect(lines.filter((line) => line.includes('bare run id'))).toHaveLength(1);
  });
});

describe('files the service could not take', () => {
  it('are spooled with the run’s end while the service fails, and uploaded by replay once it is back; a file changed since is said and left', async () => {
    const dir = filesDir();
    const shot = writeFile(dir, 'shot.png', PNG);
    const changed = writeFile(dir, 'log.txt', 'first words\n');
    const { server, url, apiKey, uploads, faults } = await serverSeeing();
    faults.failUploads = true;
    const { reporter, lines, spoolDir } = createReporter(url, apiKey, { maxRetries: 0 });
    reporter.startRun();
    reporter.addResults([
      {
        testSuite: 'a.test.ts',
        testCase: 'fails',
        status: 'failed',
        duration: 1,
        attachments: [
          { name: 'screenshot', path: shot },
          { name: 'log', path: changed },
          { name: 'stdout', body: 'printed\n' },
        ],
      },
    ]);
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({
      delivered: 1,
      spooled: 0,
      files: { sent: 0, spooled: 3 },
      runEnd: { state: 'spooled' },
    });
    expect(lines.at(-1)).toContain(`; 3 files spooled to ${summary!.spoolFile}: send them with`);
    expect(readSpoolLines(spoolDir).map((line) => line.type)).toEqual([
      'run',
      'attachment',
      'attachment',
      'attachment',
      'complete',
    ]);
    expect(await server.store.endOf(summary!.runId!)).toBeUndefined();

    fs.writeFileSync(changed, 'other words\n');
    faults.failUploads = false;
    const logged: string[] = [];
    const replayed = await replaySpool({
      dir: spoolDir,
      apiKey,
      baseUrl: url,
      userAgent: 'test',
      log: (line) => logged.push(line),
    });
    expect(replayed).toMatchObject({
      attachments: { sent: 2, dropped: 1, remaining: 0 },
      runsCompleted: 1,
      errors: [],
    });
    expect(logged).toEqual([
      `${summary!.spoolFile}: attachment "log" of "a.test.ts > fails" (12 B) changed since the run (${changed} is not the file that was attached): not uploaded`,
    ]);
    expect(uploads().filter((request) => request.n >= 3)).toHaveLength(2);
    const listed = (await (
      await fetch(`${url}/api/v1/runs/${summary!.runId}/results`, {
        headers: { authorization: `Bearer ${apiKey}` },
      })
    ).json()) as { attachments: { name: string; received: boolean }[] }[];
    expect(listed[0]?.attachments.map(({ name, received }) => [name, received])).toEqual([
      ['screenshot', true],
      ['log', false],
      ['stdout', true],
    ]);
    expect(await server.store.endOf(summary!.runId!)).toMatchObject({ status: 'failed' });
    expect(readSpoolLines(spoolDir)).toEqual([]);
  });

  it('are spooled by a process on its way out with the results still being hashed, and replay sends both', async () => {
    const shot = writeFile(filesDir(), 'shot.png', PNG);
    const { server, url, apiKey } = await startTestServer();
    const spoolDir = tempDir('testrun-spool-');
    const resolution = resolveConfig({
      options: { apiKey, baseUrl: url, spoolDir, ciTags: false },
      env: {},
      rootDir: process.cwd(),
    });
    if (resolution.state !== 'enabled') throw new Error(resolution.state);
    const { config } = resolution;
    const service = openService({ ...config, userAgent: 'test', env: {} });
    const session = new RunSession({
      config,
      service,
      run: { project: 'shop', framework: 'vitest', tags: [] },
      log: () => {},
    });
    session.start();
    const stage = new AttachmentStage({ session, config, deliver: (sent) => session.send(sent) });
    stage.add([
      {
        result: { testSuite: 'a.test.ts', testCase: 'fails', status: 'failed', duration: 1 },
        files: [{ name: 'screenshot', path: shot }],
      },
    ]);
    // The exit hook, at once: nothing asynchronous finishes now.
    expect(session.spoolNow()).toBe(1);
    const spooled = readSpoolLines(spoolDir);
    expect(spooled.find((line) => line.type === 'batch')).toMatchObject({
      results: [
        { testCase: 'fails', attachments: [{ name: 'screenshot', sha256: sha256(PNG), size: PNG.length }] },
      ],
    });
    expect(spooled.find((line) => line.type === 'attachment')).toMatchObject({
      sha256: sha256(PNG),
      path: shot,
      name: 'screenshot',
    });
    await session.finish();

    const replayed = await replaySpool({
      dir: spoolDir,
      apiKey,
      baseUrl: url,
      userAgent: 'test',
      log: () => {},
    });
    expect(replayed).toMatchObject({ delivered: 1, attachments: { sent: 1, remaining: 0 } });
    const [run] = await server.store.runs();
    expect((await server.store.results(run!.id))[0]?.attachments?.[0]?.sha256).toBe(sha256(PNG));
  });
});
