import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createServer } from '@testrun/server';
import { havePostgres, mountSmallDisk, type PostgresServer, startPostgres } from '@testrun/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

// `kill -9` and a full disk, against a server in a process of its own on a data folder:
// whatever it acknowledged must be there after a restart, once.

const SERVE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'serve-folder', 'serve.mjs');
const KEY = 'durability-key';
const CLIENTS = 4;
const PER_BATCH = 25;

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

/** Starts serve.mjs on `data` and answers its URL once it listens. */
async function serveInChild(data: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVE, data, KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const { url } = JSON.parse(line) as { url: string };
    return { url, child };
  }
  throw new Error(`serve.mjs exited (${child.exitCode}) before it listened`);
}

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function createRunAt(url: string): Promise<string> {
  const answer = await fetch(`${url}/api/v1/runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ project: 'flood', framework: 'vitest' }),
  });
  return ((await answer.json()) as { id: string }).id;
}

interface Flood {
  /** Test names of every batch answered 201. */
  acknowledged: string[];
  /** Answers other than 201 that arrived (a full disk's 507). */
  refusals: { status: number; code: string }[];
  /** Batches sent and never answered (the kill cut them): what a reporter sends again. */
  unanswered: { key: string; body: string; names: string[] }[];
}

/**
 * CLIENTS clients each send batches of PER_BATCH uniquely named results, one after another,
 * until `stop()` says so or the server stops answering. `onAck` sees each acknowledged count.
 */
function flood(url: string, runId: string, onAck: (acknowledged: number, flood: Flood) => void) {
  const state: Flood = { acknowledged: [], refusals: [], unanswered: [] };
  let stopped = false;
  const client = async (c: number) => {
    for (let batch = 0; !stopped; batch += 1) {
      const names = Array.from({ length: PER_BATCH }, (_, i) => `client ${c} batch ${batch} result ${i}`);
      const results = names.map((testCase) => ({
        testSuite: 'flood.test.ts',
        testCase,
        status: 'passed',
        duration: 1,
      }));
      // Each batch with its own Idempotency-Key, as the reporters send them.
      const key = `flood-${c}-${batch}`;
      const body = JSON.stringify({ results });
      let answer: Response;
      try {
        answer = await fetch(`${url}/api/v1/runs/${runId}/results`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': key },
          body,
        });
      } catch {
        // The server is gone: this batch was never acknowledged, and may or may not be stored.
        state.unanswered.push({ key, body, names });
        return;
      }
      if (answer.status === 201) {
        state.acknowledged.push(...names);
        onAck(state.acknowledged.length, state);
      } else {
        const body = (await answer.json()) as { error: { code: string; message: string } };
        state.refusals.push({ status: answer.status, code: body.error.code });
        onAck(state.acknowledged.length, state);
      }
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  return {
    state,
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/** Reads the run back in this process from the same folder (or PostgreSQL URL), after the child is gone. */
async function storedNames(data: string, runId: string): Promise<{ names: string[]; total: number }> {
  const target = data.startsWith('postgres://') ? { database: data } : { data };
  const server = await createServer({ ...target, apiKeys: [KEY] });
  try {
    const names = (await server.store.results(runId)).map((result) => result.testCase);
    const run = await server.store.runWithCounts(runId);
    return { names, total: run?.total ?? -1 };
  } finally {
    await server.close();
  }
}

function duplicates(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    if (seen.has(name)) return true;
    seen.add(name);
    return false;
  });
}

async function tempFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'testrun-durability-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Floods a server in a child process on `data` (a folder or a PostgreSQL URL) from several
 * clients, kills it with SIGKILL mid-flood, and checks what it stored against what it
 * acknowledged: every acknowledged result once, and counts that agree. Answers the run's id.
 */
async function killInAFlood(data: string): Promise<string> {
  const { url, child } = await serveInChild(data);
  const runId = await createRunAt(url);

  const exited = new Promise((resolve) => child.once('exit', resolve));
  const writes = flood(url, runId, (acknowledged) => {
    // Mid-flood: every client has a batch in flight when the kill lands.
    if (acknowledged >= 40 * PER_BATCH && !child.killed) child.kill('SIGKILL');
  });
  await exited;
  writes.stop();
  await writes.done;

  const stored = await storedNames(data, runId);
  expect(writes.state.acknowledged.length).toBeGreaterThanOrEqual(40 * PER_BATCH);
  expect(duplicates(stored.names)).toEqual([]);
  expect(writes.state.acknowledged.filter((name) => !stored.names.includes(name))).toEqual([]);
  // The counts kept on write agree with the results: the kill left no half-applied batch.
  expect(stored.total).toBe(stored.names.length);
  expect(stored.names.length % PER_BATCH).toBe(0);

  // The batches the kill cut, sent again with their keys to a restarted server, as a reporter's
  // retry does: each is stored once, whether its first commit made it or not.
  expect(writes.state.unanswered.length).toBeGreaterThan(0);
  const retried = await retryAfterRestart(data, runId, writes.state.unanswered);
  expect(retried.every((status) => status === 201)).toBe(true);
  const afterRetry = await storedNames(data, runId);
  expect(duplicates(afterRetry.names)).toEqual([]);
  const sent = [...writes.state.acknowledged, ...writes.state.unanswered.flatMap((batch) => batch.names)];
  expect(afterRetry.names.toSorted()).toEqual(sent.toSorted());
  expect(afterRetry.total).toBe(afterRetry.names.length);
  return runId;
}

/** Sends each batch again with its Idempotency-Key to a server restarted on `data`; answers the statuses. */
async function retryAfterRestart(
  data: string,
  runId: string,
  batches: Flood['unanswered'],
): Promise<number[]> {
  const target = data.startsWith('postgres://') ? { database: data } : { data };
  const server = await createServer({ ...target, apiKeys: [KEY] });
  try {
    const statuses: number[] = [];
    for (const { key, body } of batches) {
      const answer = await fetch(`${server.url}/api/v1/runs/${runId}/results`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': key },
        body,
      });
      statuses.push(answer.status);
    }
    return statuses;
  } finally {
    await server.close();
  }
}

describe('a server on a data folder', () => {
  it('keeps every acknowledged result, once, when killed with SIGKILL in a flood of writes, and stores each batch the kill cut once when it is retried', async () => {
    const data = join(await tempFolder(), 'data');
    const runId = await killInAFlood(data);

    // And the folder serves again, in a new process, where the killed one left it.
    const again = await serveInChild(data);
    expect((await fetch(`${again.url}/api/v1/runs/${runId}`, { headers })).status).toBe(200);
  });

  it('answers 507 while the disk is full, keeps every acknowledged result, and writes again once space is freed', async (context) => {
    const { mountPoint, grow } = mountSmallDisk(context, '1m');
    const data = join(mountPoint, 'data');
    const { url, child } = await serveInChild(data);
    const runId = await createRunAt(url);

    const writes = flood(url, runId, (_acknowledged, state) => {
      if (state.refusals.length >= 10) writes.stop();
    });
    await writes.done;
    expect(writes.state.refusals[0]).toEqual({ status: 507, code: 'storage_full' });

    // Reads still work on a full disk.
    expect((await fetch(`${url}/api/v1/runs/${runId}`, { headers })).status).toBe(200);

    // Free space: grow the tmpfs, and the same server writes again without a restart.
    grow('64m');
    const after = await fetch(`${url}/api/v1/runs/${runId}/results`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        results: [
          { testSuite: 'flood.test.ts', testCase: 'after the disk was freed', status: 'passed', duration: 1 },
        ],
      }),
    });
    expect(after.status).toBe(201);
    writes.state.acknowledged.push('after the disk was freed');

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const stored = await storedNames(data, runId);
    expect(duplicates(stored.names)).toEqual([]);
    expect(writes.state.acknowledged.filter((name) => !stored.names.includes(name))).toEqual([]);
    expect(stored.total).toBe(stored.names.length);
  });
});

describe.skipIf(!havePostgres())('a server on PostgreSQL', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(() => postgres?.stop());

  it('keeps every acknowledged result, once, when killed with SIGKILL in a flood of writes, and stores each batch the kill cut once when it is retried', async () => {
    // PostgreSQL rolls back the transactions of the connections the kill cut; the rest committed.
    await killInAFlood(await postgres.createDatabase());
  });
});
