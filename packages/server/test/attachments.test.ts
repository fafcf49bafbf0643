import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { TestrunServer } from '@testrun/server';
import { type StoreEngine, storeEngines, tempDir } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AttachmentLedger } from '../src/attachments/attachment-ledger.js';
import { type BlobStore, DatabaseBlobs, FolderBlobs } from '../src/attachments/blob-store.js';
import { Retention } from '../src/ledger/retention.js';
import { createRun, get, KEY, post, result, serverOn } from './client.js';

// The attachments extension on the local server (docs/design/attachments.md): files PUT by
// the SHA-256 of their bytes, kept once, limited per file and per run, listed by the read API,
// served so they can run no script, and removed with their runs. On both engines, and in a
// data folder, where the files live beside the embedded database.

/** Every place the server keeps files: the database (SQLite in memory, PostgreSQL), and a data folder's files. */
const engines: (StoreEngine | { name: 'data folder'; target: () => Promise<{ data: string }> })[] = [
  ...storeEngines(),
  {
    name: 'data folder',
    target: async () => {
      const data = tempDir('testrun-attachments-');
      onTestFinished(() => fs.rmSync(data, { recursive: true, force: true }));
      return { data };
    },
  },
];

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function put(server: TestrunServer, runId: string, bytes: Buffer, hash = sha256(bytes)) {
  const response = await fetch(`${server.url}/api/v1/runs/${runId}/attachments/${hash}`, {
    method: 'PUT',
    body: bytes,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/octet-stream' },
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

async function download(server: TestrunServer, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${url}`, {
    headers: { authorization: `Bearer ${KEY}`, ...headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function ref(bytes: Buffer, name: string, contentType: string, attempt?: number) {
  return { name, contentType, size: bytes.length, sha256: sha256(bytes), ...(attempt ? { attempt } : {}) };
}

async function count(server: TestrunServer, table: string): Promise<number> {
  const rows = await server.store.db.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]?.n);
}

/** The files a data folder keeps, relative to it (what the server wrote outside its database). */
function filesIn(data: string): string[] {
  return (fs.readdirSync(data, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(data, name)).isFile())
    .filter((name) => !/^testrun\.db|^server\.pid/.test(name))
    .sort();
}

describe.each(engines)('attachments on $name', (engine) => {
  const startServer = serverOn(engine as StoreEngine);
  const dataOf = (server: TestrunServer) => (engine.name === 'data folder' ? server.dataLocation : undefined);
  /** What does not depend on where the bytes are kept is tested on the databases alone. */
  const databasesOnly = it.skipIf(engine.name === 'data folder');

  it('keeps a file once however many runs name it, answers a repeat as received before, and gives the bytes back; a name like ../../x reaches no path', async () => {
    const server = await startServer();
    const first = await createRun(server);
    const second = await createRun(server);
    const hostile = result({ status: 'failed', attachments: [ref(PNG, '../../x', 'image/png')] });
    expect((await post(server, `/api/v1/runs/${first}/results`, { results: [hostile] })).status).toBe(201);

    expect(await put(server, first, PNG)).toMatchObject({
      status: 201,
      body: { sha256: sha256(PNG), received: 'now' },
    });
    expect(await put(server, first, PNG)).toMatchObject({ status: 200, body: { received: 'before' } });
    expect((await put(server, second, PNG)).status).toBe(201);

    for (const runId of [first, second]) {
      const got = await download(server, `/api/v1/runs/${runId}/attachments/${sha256(PNG)}`);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(PNG)).toBe(true);
    }
    expect(await count(server, 'attachment_blobs')).toBe(1);
    expect(await count(server, 'run_attachments')).toBe(2);
    const data = dataOf(server);
    if (data) {
      expect(filesIn(data)).toEqual([path.join('attachments', sha256(PNG).slice(0, 2), sha256(PNG))]);
      expect(fs.existsSync(path.join(data, '..', 'x'))).toBe(false);
    } else {
      expect(await count(server, 'attachment_chunks')).toBe(1);
    }
    const page = (await get(server, `/runs/${first}`)).text;
    const named = `/runs/${first}/files/${sha256(PNG)}/..%2F..%2Fx.png?type=image%2Fpng`;
    expect(page).toContain(`<img src="${named}" alt="../../x"`);
    expect((await download(server, named)).bytes.equals(PNG)).toBe(true);
  });

  databasesOnly(
    'answers a file over the limit, and one past the run’s limit, with a JSON 413 naming the limit; the run and its results stay',
    async () => {
      const server = await startServer({ maxAttachmentBytes: 1000, maxRunAttachmentBytes: 1500 });
      const runId = await createRun(server);
      const big = Buffer.alloc(1001, 1);
      const first = Buffer.alloc(800, 2);
      const second = Buffer.alloc(800, 3);

      const tooLarge = await put(server, runId, big);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toEqual({
        error: {
          code: 'attachment_too_large',
          message: `the file ${sha256(big)} is 1001 bytes; this server keeps files of at most 1000 bytes`,
          size: 1001,
          maxFileBytes: 1000,
        },
      });
      expect((await put(server, runId, first)).status).toBe(201);
      const full = await put(server, runId, second);
      expect(full.status).toBe(413);
      expect(full.body).toMatchObject({
        error: { code: 'run_attachments_full', size: 800, runBytes: 800, maxRunBytes: 1500 },
      });

      const named = result({
        status: 'failed',
        attachments: [ref(big, 'video', 'video/webm'), ref(first, 'log', 'text/plain')],
      });
      expect((await post(server, `/api/v1/runs/${runId}/results`, { results: [named] })).status).toBe(201);
      const listed = (await get(server, `/api/v1/runs/${runId}/results`)).body as {
        attachments: { received: boolean }[];
      }[];
      expect(listed[0]?.attachments.map((file) => file.received)).toEqual([false, true]);
    },
  );

  databasesOnly(
    'refuses bytes that are not the file the path names, a path that names no hash, an unknown run, and an upload that does not say its size',
    async () => {
      const server = await startServer();
      const runId = await createRun(server);

      const mismatch = await put(server, runId, PNG, sha256(Buffer.from('another file')));
      expect(mismatch).toMatchObject({ status: 400, body: { error: { code: 'attachment_hash_mismatch' } } });
      expect((await put(server, runId, PNG, 'ABC')).body).toMatchObject({
        error: { code: 'invalid_request' },
      });
      expect((await put(server, 'no-such-run', PNG)).body).toMatchObject({
        error: { code: 'run_not_found' },
      });
      const chunked = await new Promise<number>((resolve, reject) => {
        const request = http.request(`${server.url}/api/v1/runs/${runId}/attachments/${sha256(PNG)}`, {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${KEY}`,
            'content-type': 'application/octet-stream',
            'transfer-encoding': 'chunked',
          },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end(PNG);
      });
      expect(chunked).toBe(411);
      expect(await count(server, 'run_attachments')).toBe(0);
    },
  );

  databasesOnly(
    'lists each result’s files in the read API, with where to download them behind the same key',
    async () => {
      const server = await startServer({ readKeys: ['read-key-3f1'] });
      const runId = await createRun(server);
      await put(server, runId, PNG);
      const shot = ref(PNG, 'screenshot', 'image/png', 2);
      await post(server, `/api/v1/runs/${runId}/results`, {
        results: [result({ status: 'failed', attachments: [shot] })],
      });

      const [listed] = (await get(server, `/api/v1/runs/${runId}/results`)).body as {
        attachments: object[];
      }[];
      const url = `/api/v1/runs/${runId}/attachments/${sha256(PNG)}`;
      expect(listed?.attachments).toEqual([{ ...shot, url, received: true }]);
      expect((await server.store.results(runId))[0]?.attachments).toEqual([shot]);
      expect((await fetch(`${server.url}${url}`)).status).toBe(401);
      const read = await fetch(`${server.url}${url}`, { headers: { authorization: 'Bearer read-key-3f1' } });
      expect(Buffer.from(await read.arrayBuffer()).equals(PNG)).toBe(true);
    },
  );

  it('removes a run’s files with the run (--keep-days), and a file once no run names it', async () => {
    const server = await startServer();
    const old = await createRun(server);
    const kept = await createRun(server);
    const shared = Buffer.from('a log both runs attached');
    await put(server, old, PNG);
    await put(server, old, shared);
    await put(server, kept, shared);
    // The kept run is young; the other is past the limit (retention's pass is run 40 days from now).
    await server.store.db.query("UPDATE runs SET created_at = '2999-01-01T00:00:00.000Z' WHERE id = $1", [
      kept,
    ]);
    const data = dataOf(server);
    const blobs: BlobStore = data
      ? new FolderBlobs(path.join(data, 'attachments'))
      : new DatabaseBlobs(server.store.db);
    const retention = Retention.paused(
      server.store,
      30,
      undefined,
      new AttachmentLedger(server.store, blobs),
    );

    expect(await retention.runOnce(Date.now() + 40 * 24 * 60 * 60_000)).toBe(1);

    expect(await count(server, 'run_attachments')).toBe(1);
    expect(await count(server, 'attachment_blobs')).toBe(1);
    expect(
      (await download(server, `/api/v1/runs/${kept}/attachments/${sha256(shared)}`)).bytes.equals(shared),
    ).toBe(true);
    if (data)
      expect(filesIn(data)).toEqual([path.join('attachments', sha256(shared).slice(0, 2), sha256(shared))]);
    else expect(await count(server, 'attachment_chunks')).toBe(1);
  });

  databasesOnly('refuses results that name files when started without the extension', async () => {
    const server = await startServer({ attachments: false });
    const runId = await createRun(server);
    const answer = await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result({ attachments: [ref(PNG, 'screenshot', 'image/png')] })],
    });
    expect(answer.body).toMatchObject({
      error: { message: 'results/0/attachments is not an allowed field' },
    });
    expect((await put(server, runId, PNG)).status).toBe(404);
  });
});

describe.each(storeEngines().filter((engine) => engine.name === 'postgres'))(
  'two servers on one $name',
  (engine) => {
    it('each serves the files the other received', async () => {
      const startServer = serverOn(engine);
      const [one, two] = [await startServer(), await startServer()];
      const runId = await createRun(one);
      expect((await put(one, runId, PNG)).status).toBe(201);
      expect((await put(two, runId, PNG)).status).toBe(200);
      expect(
        (await download(two, `/api/v1/runs/${runId}/attachments/${sha256(PNG)}`)).bytes.equals(PNG),
      ).toBe(true);
    });
  },
);

describe('a run’s files on its page', () => {
  const startServer = serverOn(storeEngines()[0]!);

  async function runWithFiles(
    server: TestrunServer,
    files: { bytes: Buffer; name: string; type: string; attempt?: number; upload?: boolean }[],
  ) {
    const runId = await createRun(server);
    for (const file of files) if (file.upload !== false) await put(server, runId, file.bytes);
    const attachments = files.map((file) => ref(file.bytes, file.name, file.type, file.attempt));
    await post(server, `/api/v1/runs/${runId}/results`, {
      results: [result({ status: 'failed', testCase: 'checkout > pays', attachments }), result()],
    });
    return runId;
  }

  const HTML = Buffer.from('<script>fetch("/pwned")</script><h1>hello</h1>');
  const LOG = Buffer.from('paying with the test card\n<b>not bold</b>\n');

  it('shows under the failed test, by attempt, an image that opens full size, a video, a log folded, a trace for the viewer, the rest to download, and what never arrived', async () => {
    const server = await startServer();
    const video = Buffer.from('webm bytes');
    const trace = Buffer.from('PK zip bytes');
    const runId = await runWithFiles(server, [
      { bytes: PNG, name: 'screenshot', type: 'image/png', attempt: 1 },
      { bytes: LOG, name: 'stdout', type: 'text/plain; charset=utf-8', attempt: 2 },
      { bytes: trace, name: 'trace', type: 'application/zip', attempt: 2 },
      { bytes: video, name: 'video', type: 'video/webm', attempt: 2 },
      { bytes: HTML, name: 'report.html', type: 'text/html', attempt: 2 },
      {
        bytes: Buffer.from('never sent'),
        name: 'too-big.webm',
        type: 'video/webm',
        attempt: 2,
        upload: false,
      },
    ]);
    const page = (await get(server, `/runs/${runId}`)).text;
    const failed = page.slice(page.indexOf('id="failed-tests"'), page.indexOf('id="failures-by-message"'));
    const file = (bytes: Buffer, name: string, type: string) =>
      `/runs/${runId}/files/${sha256(bytes)}/${name}?type=${encodeURIComponent(type).replace(/%20/g, '+')}`;

    expect([...failed.matchAll(/<p class="attempt-title">([^<]+)</g)].map((m) => m[1])).toEqual([
      'Attempt 1',
      'Attempt 2',
    ]);
    expect(failed).toContain(
      `<a href="${file(PNG, 'screenshot.png', 'image/png')}" target="_blank" rel="noopener" title="Full size"><img src="${file(PNG, 'screenshot.png', 'image/png')}" alt="screenshot" loading="lazy"></a>`,
    );
    expect(failed).toContain(
      `<video controls preload="metadata" src="${file(video, 'video.webm', 'video/webm')}"></video>`,
    );
    expect(failed).toContain(
      `<a class="open-trace" href="/trace-viewer/index.html?trace=${encodeURIComponent(file(trace, 'trace.zip', 'application/zip'))}"`,
    );
    expect(failed).toContain(
      `<details class="file log"><summary><span class="file-name">stdout</span> <span class="muted">· ${LOG.length} B</span></summary><pre class="name">paying with the test card\n&lt;b&gt;not bold&lt;/b&gt;\n</pre></details>`,
    );
    expect(failed).toContain(
      `<span class="file-name">report.html</span> <span class="muted">· ${HTML.length} B</span> · <a href="${file(HTML, 'report.html', 'text/html')}">download</a>`,
    );
    expect(failed).toMatch(
      /too-big\.webm<\/span> <span class="muted">· 10 B<\/span> <span class="muted">· not received/,
    );
    // Pictures first, then the trace, the log, the rest: in attempt 2, the video leads.
    const second = failed.slice(failed.indexOf('Attempt 2'));
    expect(second.indexOf('<video')).toBeLessThan(second.indexOf('open-trace'));
    expect(second.indexOf('open-trace')).toBeLessThan(second.indexOf('class="file log"'));
  });

  it('serves each file so that it can run no script: HTML and SVG as bytes to save, in a sandbox, never sniffed', async () => {
    const server = await startServer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/pwned")</script></svg>');
    const runId = await runWithFiles(server, [
      { bytes: HTML, name: 'report.html', type: 'text/html' },
      { bytes: svg, name: 'chart.svg', type: 'image/svg+xml' },
      { bytes: PNG, name: 'screenshot', type: 'image/png' },
    ]);
    const served = async (bytes: Buffer, name: string, type: string) =>
      download(
        server,
        `/runs/${runId}/files/${sha256(bytes)}/${encodeURIComponent(name)}?type=${encodeURIComponent(type)}`,
      );

    for (const [bytes, name, type] of [
      [HTML, 'report.html', 'text/html'],
      [svg, 'chart.svg', 'image/svg+xml'],
    ] as const) {
      const answer = await served(bytes, name, type);
      expect(answer.headers.get('content-type')).toBe('application/octet-stream');
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      );
      expect(answer.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(answer.bytes.equals(bytes)).toBe(true);
    }
    const image = await served(PNG, 'screenshot.png', 'image/png');
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(image.headers.get('content-security-policy')).toMatch(/^sandbox; /);
    // A name like a path names the download, never a place: the bytes are found by the hash.
    const hostile = await served(PNG, '../../etc/"passwd"\r\nX: 1', 'image/png');
    expect(hostile.status).toBe(200);
    expect(hostile.headers.get('content-disposition')).toBe(
      `inline; filename="../../etc/_passwd___X: 1"; filename*=UTF-8''..%2F..%2Fetc%2F%22passwd%22%0D%0AX%3A%201`,
    );
    expect(hostile.bytes.equals(PNG)).toBe(true);
    expect((await download(server, `/runs/${runId}/files/${'0'.repeat(64)}/x.png`)).status).toBe(404);
  });

  it('opens a file to those the pages open to: their key or cookie', async () => {
    const server = await startServer({ readKeys: ['read-key-52'] });
    const runId = await runWithFiles(server, [{ bytes: PNG, name: 'screenshot', type: 'image/png' }]);
    const url = `${server.url}/runs/${runId}/files/${sha256(PNG)}/screenshot.png?type=image%2Fpng`;
    const anonymous = await fetch(url, { redirect: 'manual' });
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([
      303,
      `/login?next=${encodeURIComponent(new URL(url).pathname + new URL(url).search)}`,
    ]);
    const signedIn = await fetch(url, { headers: { authorization: 'Bearer read-key-52' } });
    expect(Buffer.from(await signedIn.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('answers a range of a file (a video seeks), and a HEAD with its headers alone', async () => {
    const server = await startServer();
    const video = Buffer.from('0123456789abcdef');
    const runId = await runWithFiles(server, [{ bytes: video, name: 'video', type: 'video/webm' }]);
    const url = `/runs/${runId}/files/${sha256(video)}/video.webm?type=video%2Fwebm`;

    const part = await download(server, url, { range: 'bytes=4-7' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 4-7/16');
    expect(part.bytes.toString()).toBe('4567');
    expect((await download(server, url, { range: 'bytes=-3' })).bytes.toString()).toBe('def');
    expect((await download(server, url, { range: 'bytes=99-' })).status).toBe(416);
    const head = await fetch(`${server.url}${url}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), head.headers.get('etag')]).toEqual([
      200,
      '16',
      `"${sha256(video)}"`,
    ]);
  });

  it('serves Playwright’s trace viewer from playwright-core, under a policy of its own, and no file outside it', async () => {
    const server = await startServer();
    const viewer = await fetch(`${server.url}/trace-viewer/index.html`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(viewer.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[^']+'; /);
    expect(await viewer.text()).toContain('<title>Playwright Trace Viewer</title>');
    expect((await fetch(`${server.url}/trace-viewer/sw.bundle.js`)).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
    for (const outside of [
      '/trace-viewer/../../package.json',
      '/trace-viewer/..%2F..%2Fpackage.json',
      '/trace-viewer/%2e%2e/%2e%2e/package.json',
    ]) {
      expect((await fetch(`${server.url}${outside}`)).status, outside).not.toBe(200);
    }
  });
});
