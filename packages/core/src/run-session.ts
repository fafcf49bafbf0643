import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import type { ResolvedConfig } from './config.js';
import { type CreateRunOutcome, createRun } from './create-run.js';
import { Deadline } from './deadline.js';
import type { HttpClient } from './http-client.js';
import { Overflow, type OverflowBatch } from './overflow.js';
import { sendWithRetries } from './send-with-retries.js';
import { halfKeys } from './split-keys.js';
import { type RunPayload, SpoolWriter } from './spool.js';
import type { RunSummary, TestResult } from './types.js';

/** How long `finish` waits past the deadline for aborted requests to settle before spooling them itself. */
const SETTLE_GRACE_MS = 500;

interface Batch {
  results: TestResult[];
  idempotencyKey: string;
  settled: boolean;
}

export interface RunSessionInit {
  config: ResolvedConfig;
  http: HttpClient;
  run: RunPayload;
  /** Tags found while the run starts (CI provider, branch…), added to `run.tags` before it is created. */
  moreTags?: Promise<string[]>;
  /** One line per problem; the caller prefixes and redacts it. */
  log: (line: string) => void;
  random?: () => number;
}

/**
 * One test run in the service: creates it (or adopts `runId`), streams results in batches
 * through a bounded queue, and at `finish` delivers or spools everything within flushTimeout.
 * Never throws: problems end up in the summary.
 */
export class RunSession {
  private readonly config: ResolvedConfig;
  private readonly http: HttpClient;
  private readonly deadline = new Deadline();
  private readonly queue: PQueue;
  private readonly spool: SpoolWriter;
  /** Batches in the queue or in flight, at most 2 × concurrency; the rest wait in `overflow`. */
  private readonly pending = new Set<Batch>();
  private readonly overflow = new Overflow();
  private closed = false;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly createKey = randomUUID();
  private run: RunPayload;
  private runIdPromise: Promise<string | undefined> | undefined;
  private runId: string | undefined;
  private buffer: TestResult[] = [];
  private timer: NodeJS.Timeout | undefined;
  private refused = false;
  private finishing: Promise<RunSummary> | undefined;
  private readonly errors: string[] = [];
  private readonly counts = { delivered: 0, spooled: 0, failed: 0 };

  constructor(private readonly init: RunSessionInit) {
    this.config = init.config;
    this.http = init.http;
    this.queue = new PQueue({ concurrency: this.config.concurrency });
    this.run = init.run;
    this.spool = new SpoolWriter(this.config.spoolDir, () => ({
      type: 'run',
      runId: this.runId ?? null,
      run: this.run,
      runIdPath: this.config.runIdPath,
      idempotencyKey: this.createKey,
      baseUrl: this.config.baseUrl,
      createdAt: new Date().toISOString(),
    }));
  }

  /** Sends create-run at once, so it overlaps with test collection. */
  start(): void {
    if (this.runIdPromise) return;
    this.runIdPromise = (this.config.runId ? Promise.resolve(this.config.runId) : this.createRun()).then(
      (id) => {
        this.runId = id;
        return id;
      },
    );
  }

  add(results: readonly TestResult[]): void {
    if (this.finishing) {
      this.fail(`${results.length} results arrived after the run ended and were spooled`);
      this.enqueue(results.slice());
      return;
    }
    for (const result of results) this.buffer.push(result);
    while (this.buffer.length >= this.config.batchSize) {
      this.enqueue(this.buffer.splice(0, this.config.batchSize));
    }
    if (this.buffer.length > 0 && !this.timer) {
      this.timer = setTimeout(() => this.flushBuffer(), this.config.flushInterval);
      this.timer.unref();
    }
  }

  /** Flushes, waits for delivery up to flushTimeout, spools the rest. Resolves once. */
  finish(): Promise<RunSummary> {
    this.finishing ??= this.drain();
    return this.finishing;
  }

  private async drain(): Promise<RunSummary> {
    const started = performance.now();
    this.start();
    this.flushBuffer();
    this.deadline.start(this.config.flushTimeout);
    const runId = await Promise.race([this.runIdPromise, this.deadline.expired().then(() => undefined)]);
    if (runId === undefined && this.idle()) this.spoolRunOnly();
    // The grace timer is cancelled once the race is over: a stray timer would keep the test
    // process alive for its whole length after the run has ended.
    const grace = new AbortController();
    await Promise.race([
      this.allSettled(),
      this.deadline.expired().then(() => sleep(SETTLE_GRACE_MS, grace.signal)),
    ]);
    grace.abort();
    this.deadline.expire();
    this.closed = true;
    this.queue.clear();
    for (const batch of this.pending) this.spoolBatch(batch, undefined);
    for (let batch = this.overflow.shift(); batch; batch = this.overflow.shift()) {
      this.spoolBatch({ ...batch, settled: false }, undefined);
    }
    this.overflow.dispose();
    // The spec shows no call to complete a run. Once it does, this is the one place for it:
    // every result is delivered or spooled here, and the run id is known.
    this.deadline.dispose();
    await this.http.close();
    return {
      runId: this.runId,
      ...this.counts,
      requests: this.http.requests,
      durationMs: Math.round(performance.now() - started),
      spoolFile: this.spool.path,
      errors: [...this.errors],
    };
  }

  private flushBuffer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length > 0) this.enqueue(this.buffer.splice(0));
  }

  private enqueue(results: TestResult[]): void {
    this.start();
    const batch = { results, idempotencyKey: randomUUID() };
    if (this.queue.size >= this.config.concurrency || this.overflow.size > 0) {
      this.guardDisk(() => this.overflow.push(batch), batch);
    } else {
      this.schedule(batch);
    }
  }

  private schedule({ results, idempotencyKey }: OverflowBatch): void {
    const batch: Batch = { results, idempotencyKey, settled: false };
    this.pending.add(batch);
    this.queue.add(() => this.send(batch)).catch((error) => this.spoolBatch(batch, String(error)));
  }

  /** Moves waiting batches from disk into the queue as it empties. */
  private refill(): void {
    while (!this.closed && this.queue.size < this.config.concurrency && this.overflow.size > 0) {
      const batch = this.overflow.shift();
      if (batch) this.schedule(batch);
    }
  }

  /** If the overflow file cannot be written, the batch is kept in memory instead: never lost. */
  private guardDisk(write: () => void, batch: OverflowBatch): void {
    try {
      write();
    } catch {
      this.schedule(batch);
    }
  }

  private async send(batch: Batch): Promise<void> {
    const runId = await this.runIdPromise;
    if (batch.settled) return;
    if (runId === undefined || this.refused || this.deadline.passed) {
      this.spoolBatch(batch, undefined);
      return;
    }
    const path = `/api/v1/runs/${encodeURIComponent(runId)}/results`;
    const body = JSON.stringify({ results: batch.results });
    const outcome = await sendWithRetries(
      this.http,
      path,
      body,
      batch.idempotencyKey,
      this.config,
      this.deadline,
    );
    if (batch.settled) return;
    if (outcome.kind === 'ok') {
      this.settle(batch);
      this.counts.delivered += batch.results.length;
    } else if (outcome.kind === 'too-large' && batch.results.length > 1) {
      await this.split(batch);
    } else {
      this.handleFailure(outcome);
      this.spoolBatch(batch, undefined);
    }
  }

  /** A 413 halves the batch; each half is a new body, so it gets a new idempotency key. */
  private async split(batch: Batch): Promise<void> {
    const middle = Math.ceil(batch.results.length / 2);
    const keys = halfKeys(batch.idempotencyKey);
    const halves = [batch.results.slice(0, middle), batch.results.slice(middle)].map((results, i) => ({
      results,
      idempotencyKey: keys[i]!,
      settled: false,
    }));
    for (const half of halves) this.pending.add(half);
    this.settle(batch);
    for (const half of halves) await this.send(half);
  }

  /** Never rejects: a run that cannot be created is `undefined`, and its batches are spooled. */
  private async createRun(): Promise<string | undefined> {
    try {
      const moreTags = await this.init.moreTags?.catch(() => []);
      if (moreTags?.length) this.run = { ...this.run, tags: [...new Set([...this.run.tags, ...moreTags])] };
      const outcome = await createRun(this.http, this.run, this.createKey, this.config, this.deadline);
      if (outcome.kind === 'ok') return outcome.runId;
      this.handleFailure(outcome);
    } catch (error) {
      this.fail(`the run could not be created: ${(error as Error).message}`);
    }
    return undefined;
  }

  private handleFailure(outcome: Exclude<CreateRunOutcome, { kind: 'ok' }>): void {
    if (this.refused) return;
    if (outcome.kind === 'auth') {
      this.refused = true;
      // Stops every request in flight or waiting to retry: nothing more goes out with a refused key.
      this.deadline.expire();
      this.fail(
        `the service refused the API key: ${outcome.error.message}. Nothing more is sent in this run.`,
      );
      return;
    }
    this.fail(outcome.error.message);
  }

  /** Resolves when every batch handed to the queue is delivered or spooled. */
  private allSettled(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private idle(): boolean {
    return this.pending.size === 0 && this.overflow.size === 0;
  }

  private settle(batch: Batch): void {
    batch.settled = true;
    this.pending.delete(batch);
    this.refill();
    if (this.idle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private spoolBatch(batch: Batch, reason: string | undefined): void {
    if (batch.settled) return;
    this.settle(batch);
    if (reason) this.fail(reason);
    try {
      this.spool.writeBatch({ type: 'batch', idempotencyKey: batch.idempotencyKey, results: batch.results });
      this.counts.spooled += batch.results.length;
    } catch (error) {
      this.counts.failed += batch.results.length;
      this.fail(`could not write the spool in ${this.config.spoolDir}: ${(error as Error).message}`);
    }
  }

  private spoolRunOnly(): void {
    try {
      this.spool.writeRunOnly();
    } catch (error) {
      this.fail(`could not write the spool in ${this.config.spoolDir}: ${(error as Error).message}`);
    }
  }

  /** Logs each distinct problem once. */
  private fail(message: string): void {
    if (this.errors.includes(message)) return;
    this.errors.push(message);
    this.init.log(message);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
