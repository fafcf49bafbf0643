import { createHash, randomUUID } from 'node:crypto';
import type { FaultRequest } from '@testrun/server';
import { startTestServer, type TestServer } from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlock } from '../../../test/doc-blocks.js';
import { uploadFile } from '../src/attachments/upload.js';
import {
  announcedAttachmentLimits,
  announcedExtensions,
  announcedResultLimits,
  extractRunId,
  runPageUrl,
} from '../src/delivery/create-run.js';
import { Deadline } from '../src/delivery/deadline.js';
import { bodyFor, deliverBatch, makeBatch } from '../src/delivery/deliver-batch.js';
import { sendWithRetries } from '../src/delivery/send-with-retries.js';
import { openService, type Service } from '../src/delivery/service.js';
import { formatRunHandle } from '../src/extensions.js';
import type { HttpResponse } from '../src/http/client.js';
import { DEFAULT_COMPLETE_RUN, type RunEndStatus } from '../src/options/complete-run-request.js';
import { readPlan, requestPlan } from '../src/plan/plan-request.js';
import { QuarantineWatch, readQuarantineList, testKey } from '../src/quarantine/index.js';
import { sendRunEnd } from '../src/run-end/end-run.js';
import { type Get, readRun } from '../src/summary/read-run.js';
import { RunTally } from '../src/summary/tally.js';
import type { TestResult } from '../src/types.js';
import { userAgent } from '../src/version.js';

// docs/service-api.md, the interface as testrun uses it, held to what testrun does: each request
// the page shows is made by core's own code (create-run, deliverBatch, sendRunEnd, readRun,
// requestPlan) to a real server, and must arrive as shown (method, path, every header, the
// body); each answer the page shows must have what the server answers, and be read by core as
// the page says. One in-memory server, the examples in the page's order.

/** The run id the examples show; the server's real id takes its place. */
const SHOWN_RUN_ID = '8f3c1a2b-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const POLICY = { maxRetries: 0, requestTimeout: 10_000 };
const WORDS = { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' };

interface Shown {
  /** `POST /api/v1/runs HTTP/1.1`, `HTTP/1.1 201 Created`. */
  start: string;
  /** Names lower-cased. */
  headers: Map<string, string>;
  body: string;
}

/** A block of the page as an HTTP message, with the shown run id and key replaced by these. */
function shown(name: string, replace: { runId?: string; apiKey?: string } = {}): Shown {
  let text = docBlock(name);
  if (replace.runId) text = text.replaceAll(SHOWN_RUN_ID, replace.runId);
  if (replace.apiKey) text = text.replaceAll('<API key>', replace.apiKey);
  const [head = '', ...rest] = text.split('\n\n');
  const [start = '', ...lines] = head.split('\n');
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
  );
  return { start, headers, body: rest.join('\n\n').trim() };
}

/** `testrun/X (vitest/X; node/X)`: a User-Agent without its versions. */
const withoutVersions = (agent: string | undefined) => agent?.replace(/\d+\.\d+\.\d+/g, 'X');

/** What HTTP/1.1 adds to every request, which the page leaves out. */
const TRANSPORT_HEADERS = new Set(['host', 'connection', 'content-length']);

/**
 * The request as the server received it is the one the page shows: method, path, exactly the
 * headers shown, the same values (the User-Agent but for versions; a fresh key, where testrun
 * makes one per request, any UUID), and the same JSON in the same order.
 */
function expectSentAsShown(sent: FaultRequest | undefined, example: Shown, { freshKey = false } = {}) {
  const [method, target] = example.start.split(' ');
  expect(`${sent?.method} ${sent?.path}`).toBe(`${method} ${target}`);
  const names = Object.keys(sent?.headers ?? {}).filter((name) => !TRANSPORT_HEADERS.has(name));
  expect(names.sort()).toEqual([...example.headers.keys()].sort());
  for (const [name, value] of example.headers) {
    const got = sent?.headers[name] as string;
    if (name === 'user-agent') expect(withoutVersions(got)).toBe(withoutVersions(value));
    else if (name === 'idempotency-key' && freshKey) expect(got).toMatch(/^[0-9a-f-]{36}$/);
    else expect(got, name).toBe(value);
  }
  expect(JSON.stringify(sent?.body)).toBe(JSON.stringify(JSON.parse(example.body)));
}

/** The answer has the status and headers shown, and every field shown, of the type shown. */
function expectAnswerAsShown(answer: HttpResponse | undefined, example: Shown) {
  expect(`HTTP/1.1 ${answer?.status}`).toBe(example.start.replace(/ [A-Za-z ]+$/, ''));
  for (const [name, value] of example.headers) expect(answer?.headers[name], name).toBe(value);
  expect(unlike(JSON.parse(example.body), JSON.parse(answer?.body ?? 'null'))).toEqual([]);
}

/** Where `shown` has a field that `real` lacks or holds as another JSON type; an array's items each like one of real's. */
function unlike(shown: unknown, real: unknown, at = ''): string[] {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(shown) !== kind(real)) return [`${at || '/'}: ${kind(real)}, shown as ${kind(shown)}`];
  if (Array.isArray(shown)) {
    return shown.flatMap((item, i) =>
      (real as unknown[]).some((candidate) => unlike(item, candidate).length === 0)
        ? []
        : [`${at}/${i}: like no item answered`],
    );
  }
  if (kind(shown) !== 'object') return [];
  const fields = real as Record<string, unknown>;
  return Object.entries(shown as Record<string, unknown>).flatMap(([key, value]) =>
    Object.hasOwn(fields, key) ? unlike(value, fields[key], `${at}/${key}`) : [`${at}/${key}: not answered`],
  );
}

describe('docs/service-api.md, each example made by core against the real server', () => {
  let server: TestServer;
  const seen: FaultRequest[] = [];
  const answers: HttpResponse[] = [];
  let service: Service;
  let runId = '';

  /** A service as the page's examples name their client, keeping each answer. */
  function serviceAs(client: string): Service {
    const opened = openService({
      baseUrl: server.url,
      apiKey: server.apiKey,
      userAgent: userAgent(client),
      env: {},
      ...POLICY,
    });
    const send = opened.http.send.bind(opened.http);
    opened.http.send = async (...args) => {
      const answer = await send(...args);
      answers.push(answer);
      return answer;
    };
    return opened;
  }

  const example = (name: string) => shown(name, { runId, apiKey: server.apiKey });

  beforeAll(async () => {
    server = await startTestServer({
      faults: (request) => {
        seen.push(request);
      },
    });
    service = serviceAs('vitest/3.2.4');
  });
  afterAll(async () => {
    await service.close();
    await server.close();
  });

  it('Create a run: sent as shown; the answer shown is the server’s, read for its id, page and extensions', async () => {
    const request = shown('service-api-create-run');
    const created = await service.createRun(
      JSON.parse(request.body),
      request.headers.get('idempotency-key')!,
    );
    if (created.kind !== 'ok') throw new Error(`create-run: ${created.kind}`);
    runId = created.runId;
    expectSentAsShown(seen.at(-1), example('service-api-create-run'));
    expectAnswerAsShown(answers.at(-1), example('service-api-create-run-answer'));

    const answer = shown('service-api-create-run-answer');
    const location = answer.headers.get('location');
    expect(extractRunId(answer.body, location)).toBe(SHOWN_RUN_ID);
    expect(extractRunId(`{"id":"${SHOWN_RUN_ID}"}`, undefined)).toBe(SHOWN_RUN_ID);
    expect(extractRunId('', location)).toBe(SHOWN_RUN_ID);
    const base = 'https://ci.example.com/testrun';
    expect(runPageUrl(answer.headers.get('link'), base)).toBe(`https://ci.example.com/runs/${SHOWN_RUN_ID}`);
    const announced = announcedExtensions(answer.body, undefined);
    expect(announced).toEqual(['failure-details', 'complete-run', 'read-runs', 'attachments']);
    expect(announcedExtensions('{}', 'failure-details, complete-run, read-runs, attachments')).toEqual(
      announced,
    );
    expect(created.extensions).toEqual(expect.arrayContaining(announced));
    const limits = announcedAttachmentLimits(answer.body, undefined);
    expect(limits).toEqual({ maxFileBytes: 104_857_600, maxRunBytes: 1_073_741_824 });
    expect(created.attachmentLimits).toEqual(limits);
    expect(announcedAttachmentLimits('{}', 'max-file-bytes=104857600, max-run-bytes=1073741824')).toEqual(
      limits,
    );
    const resultLimits = announcedResultLimits(answer.body, undefined);
    expect(resultLimits).toEqual({ maxResults: 1000, maxBytes: 5_242_880 });
    expect(created.resultLimits).toEqual(resultLimits);
    expect(announcedResultLimits('{}', 'max-results=1000, max-bytes=5242880')).toEqual(resultLimits);
    expect(docBlock('service-api-handle')).toBe(
      `TESTRUN_RUN_ID='${formatRunHandle(SHOWN_RUN_ID, announced, limits)}'\n`,
    );
  });

  it('Send results: sent as shown, and any 2xx is delivered', async () => {
    const request = example('service-api-results');
    const batch = makeBatch(JSON.parse(request.body).results, request.headers.get('idempotency-key')!);
    const delivery = await deliverBatch(service.http, runId, batch, POLICY, new Deadline());
    expect(delivery).toEqual({ delivered: 3, left: [], failure: undefined });
    expectSentAsShown(seen.at(-1), request);
    expect(answers.at(-1)).toMatchObject({ status: 201, body: '{"accepted":3}' });
  });

  it('failure-details: sent as shown where announced; the four fields alone where not', async () => {
    const request = example('service-api-details');
    const results: TestResult[] = JSON.parse(request.body).results;
    const batch = makeBatch(results, request.headers.get('idempotency-key')!);
    const delivery = await deliverBatch(service.http, runId, batch, POLICY, new Deadline(), {
      acceptsDetails: true,
    });
    expect(delivery.delivered).toBe(2);
    expectSentAsShown(seen.at(-1), request);
    expect(bodyFor(batch, false)).toBe(
      JSON.stringify({ results: results.map(({ details: _, ...four }) => four) }),
    );
  });

  it('complete-run: sent as shown; the same status again is taken, another is a refusal (409)', async () => {
    const request = example('service-api-complete-run');
    const status: RunEndStatus = JSON.parse(request.body).status;
    const key = request.headers.get('idempotency-key')!;
    const end = (as: RunEndStatus, idempotencyKey: string) =>
      sendRunEnd(service.http, runId, DEFAULT_COMPLETE_RUN, as, idempotencyKey, POLICY, new Deadline());
    expect(await end(status, key)).toEqual({ state: 'sent', status });
    expectSentAsShown(seen.at(-1), request);
    expect(JSON.parse(answers.at(-1)!.body)).toMatchObject({ end: { status }, state: status });
    expect(await end(status, randomUUID())).toEqual({ state: 'sent', status });
    expect(await end('completed', randomUUID())).toMatchObject({ state: 'refused' });
    expect(answers.at(-1)?.body).toContain('run_already_completed');
  });

  it('read-runs: the paths the page names; the answers shown are the server’s, and read as the page says', async () => {
    const asked: string[] = [];
    const get: Get = async (path) => {
      asked.push(path);
      const outcome = await sendWithRetries(service.http, path, '', randomUUID(), POLICY, new Deadline(), {
        method: 'GET',
      });
      if (outcome.kind !== 'ok') return { ok: false, problem: outcome.error.message };
      return {
        ok: true,
        body: outcome.response.body,
        pageUrl: runPageUrl(outcome.response.headers.link, server.url),
      };
    };
    const read = await readRun(get, runId, new RunTally(WORDS));
    expect(read).toMatchObject({
      run: { id: runId, state: 'failed' },
      pageUrl: `${server.url}/runs/${runId}`,
    });
    expect(asked).toEqual([`/api/v1/runs/${runId}`, `/api/v1/runs/${runId}/results?limit=500`]);
    expectAnswerAsShown(answers.at(-2), example('service-api-read-run-answer'));
    expectAnswerAsShown(answers.at(-1), example('service-api-read-results-answer'));

    // What a summary takes from the answers as the page shows them.
    const pages: Record<string, Shown> = {
      [`/api/v1/runs/${SHOWN_RUN_ID}`]: shown('service-api-read-run-answer'),
      [`/api/v1/runs/${SHOWN_RUN_ID}/results?limit=500`]: shown('service-api-read-results-answer'),
    };
    const tally = new RunTally(WORDS);
    const fromShown = await readRun(
      async (path) => ({ ok: true, body: pages[path]!.body, pageUrl: undefined }),
      SHOWN_RUN_ID,
      tally,
    );
    expect(fromShown).toMatchObject({
      run: {
        id: SHOWN_RUN_ID,
        project: 'shop',
        framework: 'vitest',
        state: 'failed',
        createdAt: '2026-11-29T10:15:00.000Z',
        endedAt: '2026-11-29T10:16:05.000Z',
      },
    });
    expect(tally.toJSON()).toMatchObject({
      total: 2,
      counts: { passed: 1, failed: 1 },
      failed: [{ testCase: 'cart > applies a coupon', message: 'expected 90 to be 81', attempts: 2 }],
    });
  });

  it('shard-plans: sent as shown; the plan shown is the server’s, and one testrun uses', async () => {
    const planner = serviceAs('cli');
    try {
      const request = example('service-api-plan');
      const asked = JSON.parse(request.body);
      const answer = await requestPlan(planner.http, asked, POLICY, new Deadline());
      expect(answer.kind).toBe('plan');
      expectSentAsShown(seen.at(-1), request, { freshKey: true });
      expectAnswerAsShown(answers.at(-1), example('service-api-plan-answer'));
      expect(readPlan(shown('service-api-plan-answer').body, asked)).toMatchObject({ basis: 'durations' });
    } finally {
      await planner.close();
    }
  });

  it('quarantine: set as shown; the run’s list shown is the server’s and read as the page says; a failure marked as shown', async () => {
    const cli = serviceAs('cli');
    try {
      const request = example('service-api-quarantine-add');
      const set = await sendWithRetries(
        cli.http,
        '/api/v1/quarantines',
        JSON.stringify(JSON.parse(request.body)),
        randomUUID(),
        POLICY,
        new Deadline(),
      );
      expect(set.kind).toBe('ok');
      expectSentAsShown(seen.at(-1), request, { freshKey: true });
      expectAnswerAsShown(answers.at(-1), example('service-api-quarantine-add-answer'));
    } finally {
      await cli.close();
    }

    const listed = await sendWithRetries(
      service.http,
      `/api/v1/runs/${runId}/quarantine`,
      '',
      randomUUID(),
      POLICY,
      new Deadline(),
      { method: 'GET' },
    );
    expect(listed.kind).toBe('ok');
    expectAnswerAsShown(answers.at(-1), example('service-api-quarantine-list-answer'));
    const key = testKey('src/cart.test.ts', 'cart > applies a coupon');
    const list = readQuarantineList(shown('service-api-quarantine-list-answer').body);
    expect(list).toMatchObject({ project: 'shop', active: new Map([[key, '2026-12-13T10:14:00.000Z']]) });

    // The marked body is what core makes of the unmarked one with the list shown.
    const marked = example('service-api-quarantined-result');
    const results = JSON.parse(marked.body).results.map(
      ({ quarantined: _, ...result }: TestResult & { quarantined?: boolean }) => result,
    );
    const watch = new QuarantineWatch({
      failedStatus: 'failed',
      notTests: { fileFailureCase: '(file failed to run)', runSuite: '(run)' },
      read: async () => ({ ok: true, body: shown('service-api-quarantine-list-answer').body }),
    });
    const batch = makeBatch(results, marked.headers.get('idempotency-key')!);
    const delivery = await deliverBatch(
      service.http,
      runId,
      { ...batch, body: await watch.mark(batch.body) },
      POLICY,
      new Deadline(),
      { acceptsDetails: true },
    );
    expect(delivery.delivered).toBe(2);
    expectSentAsShown(seen.at(-1), marked);
    const stored = await server.server.store.results(runId);
    expect(stored.filter((result) => result.quarantined)).toMatchObject([
      { testCase: 'cart > applies a coupon', status: 'failed', details: { message: 'expected 90 to be 81' } },
    ]);
  });

  it('attachments: a result naming a file and the file’s PUT sent as shown; the answers shown are the server’s, the bytes read back by the url listed', async () => {
    const named = example('service-api-attachments-results');
    const results: TestResult[] = JSON.parse(named.body).results;
    const batch = makeBatch(results, named.headers.get('idempotency-key')!);
    const delivery = await deliverBatch(service.http, runId, batch, POLICY, new Deadline(), {
      acceptsAttachments: true,
    });
    expect(delivery.delivered).toBe(1);
    expectSentAsShown(seen.at(-1), named);
    // To a service that did not announce it, the four fields, byte for byte.
    expect(bodyFor(batch, false, false)).toBe(
      JSON.stringify({ results: results.map(({ attachments: _, ...four }) => four) }),
    );

    // The PUT's body is the file's bytes as the page shows them; its path and key, their hash.
    const put = example('service-api-attachment-put');
    const bytes = Buffer.from(put.body);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(results[0]?.attachments?.[0]).toMatchObject({ sha256, size: bytes.length });
    const uploaded = await uploadFile(
      service.http,
      runId,
      { sha256, size: bytes.length, source: { bytes } },
      POLICY,
      new Deadline(),
    );
    expect(uploaded.kind).toBe('ok');
    const sent = seen.at(-1);
    const [method, target] = put.start.split(' ');
    expect(`${sent?.method} ${sent?.path}`).toBe(`${method} ${target}`);
    const names = Object.keys(sent?.headers ?? {}).filter((name) => !TRANSPORT_HEADERS.has(name));
    expect(names.sort()).toEqual([...put.headers.keys()].sort());
    for (const [name, value] of put.headers) {
      const got = sent?.headers[name] as string;
      if (name === 'user-agent') expect(withoutVersions(got)).toBe(withoutVersions(value));
      else expect(got, name).toBe(value);
    }
    expect(sent?.headers['content-length']).toBe(String(bytes.length));
    expectAnswerAsShown(answers.at(-1), example('service-api-attachment-put-answer'));
    expect(JSON.parse(answers.at(-1)!.body)).toEqual({ sha256, size: bytes.length, received: 'now' });

    // The read API lists the file with where to read it, and has it.
    const read = await sendWithRetries(
      service.http,
      `/api/v1/runs/${runId}/results?limit=500`,
      '',
      randomUUID(),
      POLICY,
      new Deadline(),
      { method: 'GET' },
    );
    expect(read.kind).toBe('ok');
    expectAnswerAsShown(answers.at(-1), example('service-api-read-attachments-answer'));
    const listed = (JSON.parse(answers.at(-1)!.body) as { results: TestResult[] }).results.find(
      (result) => result.attachments !== undefined,
    )?.attachments?.[0] as { url: string; received: boolean } | undefined;
    expect(listed).toMatchObject({ url: `/api/v1/runs/${runId}/attachments/${sha256}`, received: true });
    const download = await fetch(`${server.url}${listed!.url}`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  it('attachments: a file over the limit is answered 413 as shown, before its body is read', async () => {
    const small = await startTestServer({ maxAttachmentBytes: 16 });
    const client = openService({
      baseUrl: small.url,
      apiKey: small.apiKey,
      userAgent: userAgent('vitest/3.2.4'),
      env: {},
      ...POLICY,
    });
    try {
      const created = await client.createRun(
        { project: 'shop', framework: 'vitest', tags: [] },
        randomUUID(),
      );
      if (created.kind !== 'ok') throw new Error(`create-run: ${created.kind}`);
      expect(created.attachmentLimits).toMatchObject({ maxFileBytes: 16 });
      const bytes = Buffer.from(shown('service-api-attachment-put').body);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      let answer: HttpResponse | undefined;
      const send = client.http.send.bind(client.http);
      client.http.send = async (...args) => {
        answer = await send(...args);
        return answer;
      };
      const outcome = await uploadFile(
        client.http,
        created.runId,
        { sha256, size: bytes.length, source: { bytes } },
        POLICY,
        new Deadline(),
      );
      expect(outcome.kind).toBe('too-large');
      expectAnswerAsShown(answer, shown('service-api-attachment-413'));
      expect(JSON.parse(answer!.body)).toMatchObject({
        error: { code: 'attachment_too_large', size: bytes.length, maxFileBytes: 16 },
      });
    } finally {
      await client.close();
      await small.close();
    }
  });
});
