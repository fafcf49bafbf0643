import PQueue from 'p-queue';
import { clearTimeout, monotonicNow, setTimeout, wallClockIso } from './clock.js';
import type { Deadline } from './delivery/deadline.js';
import { type BatchDelivery, deliverBatch, makeBatch } from './delivery/deliver-batch.js';
import type { CreatedRun, OutstandingWork } from './delivery/outstanding-work.js';
import { Overflow } from './delivery/overflow.js';
import { RefusedLines, RunRefusals } from './delivery/refusals.js';
import { type SendFailure, sendWithRetries } from './delivery/send-with-retries.js';
import { type Service, withTags } from './delivery/service.js';
import {
  ATTACHMENTS_EXTENSION,
  type AttachmentLimits,
  COMPLETE_RUN_EXTENSION,
  type Extension,
  FAILURE_DETAILS_EXTENSION,
  type ResultLimits,
} from './extensions.js';
import type { HttpClient } from './http/client.js';
import type { CompleteRunRequest, RunEndStatus } from './options/complete-run-request.js';
import type { ResolvedConfig } from './options/config.js';
import { countOf } from './output/summary.js';
import { randomUUID } from './random-uuid.js';
import {
  endRequest,
  endsItsRun,
  type PlannedEnd,
  type RunEvidence,
  runVerdict,
  sendRunEnd,
} from './run-end/end-run.js';
import { type SpoolAttachmentRecord, SpoolWriter } from './spool/spool.js';
import type {
  Batch,
  DeliverySummary,
  FileDeliverySummary,
  RunnerVerdict,
  RunPayload,
  TestResult,
} from './types.js';

/** How long `finish` waits past the deadline for aborted requests to settle before spooling them itself. */
const SETTLE_GRACE_MS = 500;

export interface RunSessionInit {
  config: ResolvedConfig;
  service: Service;
  run: RunPayload;
  /** Tags found while the run starts (CI provider, branch…), added to `run.tags` before it is created. */
  moreTags?: Promise<string[]>;
  /** One line per problem; the caller prefixes and redacts it. */
  log: (line: string) => void;
  /**
   * The run key is shared with sibling processes by design (WebdriverIO's workers): a create-run
   * answered from the key's earlier use is one of them having created the run, not a key reused.
   */
  sharesRunKey?: boolean;
}

/**
 * One test run in the service: creates it (or adopts `runId`), takes batches, delivers
 * them through a bounded queue, and at `finish` delivers or spools everything within
 * flushTimeout. Batches in, delivered or spooled out. Never throws: problems end up in
 * the summary.
 */
export class RunSession {
  private readonly config: ResolvedConfig;
  private readonly service: Service;
  private readonly http: HttpClient;
  private readonly deadline: Deadline;
  private readonly queue: PQueue;
  private readonly spool: SpoolWriter;
  /** Batches queued or in flight, at most 2 × concurrency; the rest wait in `overflow`. */
  private readonly pending = new Set<Batch>();
  private readonly overflow = new Overflow();
  private closed = false;
  private readonly idleWaiters: (() => void)[] = [];
  /**
   * create-run's Idempotency-Key, in the spool too. Given (`runKey`), it is shared: every
   * process given it, live or replayed, names the one run the first of them created.
   */
  private readonly createKey: string;
  /** The key of the request that completes the run, in the spool too: a replay of it is the same request. */
  private readonly completeKey = randomUUID();
  /**
   * What this session knows of how the run went, for its verdict (run-end/end-run.ts): a
   * result that went out failed, what the runner said, a process going away before the end.
   */
  private readonly evidence: Required<Pick<RunEvidence, 'failedResults' | 'cancelled'>> &
    Pick<RunEvidence, 'quarantine'> & {
      runner: RunnerVerdict;
    } = { failedResults: false, cancelled: false, runner: {} };
  /** What create-run's answer announced, once it answered. */
  private extensions: Extension[] | undefined;
  /** What a batch holding a failed result goes through before its first attempt (quarantine's marks). */
  private marker: ((body: string) => Promise<string>) | undefined;
  private readonly withFailures = new WeakSet<Batch>();
  /** How the run's end was handled (`completeRun`): sent, spooled for replay, or refused; unset while it is not. */
  private runEnd: DeliverySummary['runEnd'];
  private run: RunPayload;
  private runIdPromise: Promise<string | undefined> | undefined;
  private runId: string | undefined;
  private pageUrl: string | undefined;
  /**
   * Failed results go out with why they failed (`failureDetails`): 'always' sends them, 'auto'
   * once create-run's answer announced the extension, or a shared run's handle says it did.
   */
  private acceptsDetails: boolean;
  /** create-run's answer announced `complete-run` (completeRun 'auto'). */
  private completionAnnounced = false;
  /** Results may name files (`attachments` announced); the limits it said. */
  private acceptsAttachments = false;
  private attachmentLimits: AttachmentLimits | undefined;
  /** What create-run's answer said one results request may hold; unknown to a run given by TESTRUN_RUN_ID (its 413s say it). */
  private resultLimits: ResultLimits | undefined;
  /** Work the run's end waits for beside the batches (holdEndFor). */
  private readonly outstanding = new Set<OutstandingWork>();
  /** Set when the key was refused or TLS failed: nothing more is sent. */
  private stopped: DeliverySummary['stopped'];
  private finishing: Promise<DeliverySummary> | undefined;
  private readonly errors: string[] = [];
  private readonly counts = { delivered: 0, spooled: 0, failed: 0, refused: 0 };
  /** What the service's refusals showed: results at fault are said and dropped, never spooled (refusals.ts). */
  private readonly refusals = new RunRefusals();
  private readonly refusedLines = new RefusedLines();

  constructor(private readonly init: RunSessionInit) {
    this.config = init.config;
    this.service = init.service;
    this.http = init.service.http;
    this.deadline = init.service.deadline;
    this.queue = new PQueue({ concurrency: this.config.concurrency });
    this.run = init.run;
    this.createKey = this.config.runKey ?? randomUUID();
    this.acceptsDetails =
      this.config.failureDetails === 'always' ||
      (this.config.failureDetails === 'auto' &&
        this.config.runExtensions?.includes(FAILURE_DETAILS_EXTENSION) === true);
    // A shared run's handle says whether its service takes files; a bare id says nothing, and none go.
    this.acceptsAttachments = this.config.runExtensions?.includes(ATTACHMENTS_EXTENSION) === true;
    this.attachmentLimits = this.config.runAttachmentLimits;
    this.spool = new SpoolWriter(this.config.spoolDir, () => ({
      type: 'run',
      runId: this.runId ?? null,
      run: this.run,
      runIdPath: this.config.runIdPath,
      idempotencyKey: this.createKey,
      failureDetails: this.spooledDetailsChoice(),
      ...this.spooledAttachmentsChoice(),
      // A key some services take in the address too stays out of the spool; replay compares alike.
      baseUrl: this.http.displayUrl(''),
      createdAt: wallClockIso(),
    }));
  }

  /** The spool file, once something was spooled. */
  get spoolFile(): string | undefined {
    return this.spool.path;
  }

  /** The run's id, once it is known. */
  get id(): string | undefined {
    return this.runId;
  }

  /** Results the service accepted so far. */
  get delivered(): number {
    return this.counts.delivered;
  }

  /** The status the run's end was spooled with, once it was (`completeRun`). */
  get runEndSpooled(): RunEndStatus | undefined {
    return this.runEnd?.state === 'spooled' ? this.runEnd.status : undefined;
  }

  /** The HTTP client and deadline of this run, for work beside the batches. */
  get connection(): Pick<Service, 'http' | 'deadline'> {
    return this.service;
  }

  /** Why sending stopped (a refused key, TLS), if it did: nothing more is sent. */
  get stoppedBy(): DeliverySummary['stopped'] {
    return this.stopped;
  }

  /**
   * The run once the service created it (or the one `runId` gives); undefined when it could not
   * be: what would go to it is spooled, for replay to send to the run it creates.
   */
  async createdRun(): Promise<CreatedRun | undefined> {
    this.start();
    const runId = await this.runIdPromise;
    if (runId === undefined) return undefined;
    return { runId, acceptsAttachments: this.acceptsAttachments, attachmentLimits: this.attachmentLimits };
  }

  /**
   * Whether the run takes attached files, once that is known: from a shared run's handle (a
   * bare id: false), or create-run's answer; undefined while the run is being created, or when
   * it could not be (replay's create-run decides).
   */
  get takesFiles(): boolean | undefined {
    if (this.config.runId !== undefined || this.runId !== undefined) return this.acceptsAttachments;
    return undefined;
  }

  /** The run's end waits for `work` too (the end's hook for work beside the batches). */
  holdEndFor(work: OutstandingWork): void {
    this.outstanding.add(work);
  }

  /** Results that were held back (their files being hashed) when the end came: straight to the spool. */
  spoolResults(results: TestResult[]): void {
    if (results.length > 0) this.spoolBatch(makeBatch(results, randomUUID()));
  }

  /** A file for `testrun replay` to upload. Throws when the spool cannot be written (the caller says so). */
  spoolAttachment(record: Omit<SpoolAttachmentRecord, 'type'>): void {
    this.spool.writeAttachment(record);
  }

  /** A failure of work beside the batches: a refused key or TLS stops everything, as a batch's would. */
  noteFailure(failure: SendFailure): void {
    this.handleFailure(failure);
  }

  /** One line, said once. */
  say(line: string): void {
    this.fail(line);
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

  /** One batch to deliver; it waits on disk while the queue is full. */
  send(results: TestResult[]): void {
    this.start();
    this.evidence.failedResults ||= results.some((result) => result.status === this.config.statusMap.failed);
    const batch = makeBatch(results, randomUUID());
    if (this.marker && results.some((result) => result.status === this.config.statusMap.failed)) {
      this.withFailures.add(batch);
    }
    if (this.closed) {
      this.fail(`${countOf(results.length, 'result')} came after the run ended: spooled`);
      this.spoolBatch(batch);
      this.spool.close();
    } else if (this.queue.size >= this.config.concurrency || this.overflow.size > 0) {
      this.waitOnDisk(batch);
    } else {
      this.schedule(batch);
    }
  }

  /**
   * What the runner itself says of the run beside its results: it failed (an error outside
   * every test, a failed coverage threshold) or was interrupted. The run then ends so.
   */
  runnerSaid({ failed = false, interrupted = false }: RunnerVerdict): void {
    const { runner } = this.evidence;
    runner.failed = runner.failed === true || failed;
    runner.interrupted = runner.interrupted === true || interrupted;
  }

  /**
   * What the run's service announced, once known (for quarantine, run-end/quarantine-hand-off.ts):
   * a shared run's handle says it; a run this session creates, create-run's answer; undefined
   * for a bare id or a run that could not be created.
   */
  async announced(): Promise<readonly Extension[] | undefined> {
    if (this.config.runId !== undefined) return this.config.runExtensions;
    this.start();
    return (await this.runIdPromise) === undefined ? undefined : this.extensions;
  }

  /** `GET {base}/api/v1/runs/{runId}/quarantine`, with the retries and deadline of every request. */
  async readQuarantineList(): Promise<{ ok: true; body: string } | { ok: false; problem: string }> {
    const runId = await this.runIdPromise;
    if (runId === undefined) return { ok: false, problem: 'the run was not created' };
    const outcome = await sendWithRetries(
      this.http,
      `/api/v1/runs/${encodeURIComponent(runId)}/quarantine`,
      '',
      randomUUID(),
      this.config,
      this.deadline,
      { method: 'GET' },
    );
    return outcome.kind === 'ok'
      ? { ok: true, body: outcome.response.body }
      : { ok: false, problem: outcome.error.message };
  }

  /** Each batch holding a failed result goes through `marker` before its first attempt (quarantine's marks). */
  markWith(marker: (body: string) => Promise<string>): void {
    this.marker = marker;
  }

  /** What quarantine found, for the run's verdict (docs/design/quarantine.md). */
  quarantineSaid(quarantine: { clears: boolean }): void {
    this.evidence.quarantine = quarantine;
  }

  /** Waits for delivery up to flushTimeout, spools the rest. Resolves once. */
  finish(): Promise<DeliverySummary> {
    this.finishing ??= this.drain();
    return this.finishing;
  }

  /**
   * For a process on its way out (a signal, `process.exit`): writes everything not yet
   * delivered to the spool, synchronously, and returns how many results the spool holds
   * now, those spooled earlier in the run included (a run that could not be created spools
   * as it goes). Batches in flight are spooled too; their idempotency keys make a replay
   * safe even if the service stored them after all.
   */
  spoolNow(buffered: TestResult[] = [], { interrupted = true } = {}): number {
    this.closed = true;
    this.evidence.cancelled ||= interrupted;
    this.deadline.expire();
    if (buffered.length > 0) this.spoolBatch(makeBatch(buffered, randomUUID()));
    this.spoolOutstanding();
    this.spoolEverything();
    return this.counts.spooled;
  }

  private async drain(): Promise<DeliverySummary> {
    const started = monotonicNow();
    this.start();
    this.deadline.start(this.config.flushTimeout);
    const runId = await Promise.race([this.runIdPromise, this.deadline.expired().then(() => undefined)]);
    if (runId === undefined && this.idle()) this.spoolRunOnly();
    // The grace timer is cancelled once the race is over: a stray timer would keep the test
    // process alive for its whole length after the run has ended.
    const grace = new AbortController();
    // The run's end waits here for everything still going out: the work beside the batches
    // first (its results become batches), then the batches.
    await Promise.race([
      this.outstandingSettled().then(() => this.allSettled()),
      this.deadline.expired().then(() => sleep(SETTLE_GRACE_MS, grace.signal)),
    ]);
    grace.abort();
    this.closed = true;
    // Every result is delivered here, or some wait for replay, which then completes the run.
    // Past the deadline (a process on its way out spooled it all) the end waits in the spool too.
    const completion = this.completion();
    if (completion && !completion.ifAnnounced && this.everythingDelivered() && !this.deadline.passed) {
      await this.sendRunEnd(completion.request);
    }
    this.deadline.expire();
    this.spoolEverything();
    await this.service.close();
    const files = this.filesSummary();
    return {
      runId: this.runId,
      ...this.counts,
      requests: this.http.requests,
      durationMs: Math.round(monotonicNow() - started),
      spoolFile: this.spool.path,
      stopped: this.stopped,
      pageUrl: this.pageUrl,
      runEnd: this.runEnd,
      verdict: this.endStatus(),
      errors: [...this.errors],
      ...(files ? { files } : {}),
    };
  }

  /** Resolves when every work the end waits for has settled (sent, refused or spooled). */
  private async outstandingSettled(): Promise<void> {
    // Work may start more work (the attachments' loader, their stage): until none is added.
    for (let seen = -1; seen !== this.outstanding.size; ) {
      seen = this.outstanding.size;
      await Promise.all([...this.outstanding].map((work) => work.settled().catch(() => {})));
    }
  }

  /** What is left of the work beside the batches goes to the spool, before the batches are. */
  private spoolOutstanding(): void {
    for (const work of this.outstanding) {
      try {
        work.spoolNow();
      } catch (error) {
        this.fail(`internal error while spooling files: ${(error as Error).message}`);
      }
    }
  }

  private filesSummary(): FileDeliverySummary | undefined {
    let total: FileDeliverySummary | undefined;
    for (const work of this.outstanding) {
      const files = work.files();
      total = total
        ? {
            sent: total.sent + files.sent,
            bytes: total.bytes + files.bytes,
            spooled: total.spooled + files.spooled,
            skipped: total.skipped + files.skipped,
          }
        : files;
    }
    return total;
  }

  private spoolEverything(): void {
    this.spoolOutstanding();
    this.queue.clear();
    this.sayRefused();
    // Refused alone, and the service took no other result of the run: nothing says they are at fault.
    const undecided = this.refusals.takeUndecided();
    if (undecided.length > 0) this.fail(this.refusals.requestsRefused()!.message);
    for (const part of undecided) this.spoolBatch(part);
    for (const batch of this.pending) this.spoolBatch(batch);
    for (let batch = this.overflow.shift(); batch; batch = this.overflow.shift()) this.spoolBatch(batch);
    this.overflow.dispose();
    this.spoolRunEnd();
    this.spool.close();
  }

  /**
   * The request that completes this run, when it is this process's to send (run-end/end-run.ts
   * decides both): a run never created is created by replay, whose answer decides then.
   */
  private completion(): PlannedEnd | undefined {
    if (!endsItsRun(this.config)) return undefined;
    const announced = this.runId === undefined ? undefined : this.completionAnnounced;
    return endRequest(this.config.completeRun, announced);
  }

  /**
   * What the spool says about sending why tests failed: decided once the run exists (or the
   * option decides it); left to replay's own create-run answer when the run was never created.
   */
  private spooledDetailsChoice(): boolean | undefined {
    if (this.config.failureDetails !== 'auto' || this.runId !== undefined) return this.acceptsDetails;
    return undefined;
  }

  private endStatus(): RunEndStatus {
    return runVerdict(this.evidence).status;
  }

  private everythingDelivered(): boolean {
    const { spooled, failed } = this.counts;
    const workDone = [...this.outstanding].every((work) => work.delivered());
    return (
      this.idle() &&
      this.runId !== undefined &&
      spooled === 0 &&
      failed === 0 &&
      !this.stopped &&
      !this.refusals.waiting &&
      workDone
    );
  }

  /**
   * What the spool says about files: whether the run takes them and its limits, once the run
   * exists; nothing when it never did, and replay's create-run answer decides.
   */
  private spooledAttachmentsChoice(): { attachments?: boolean; attachmentLimits?: AttachmentLimits } {
    if (this.runId === undefined) return {};
    return this.attachmentLimits
      ? { attachments: this.acceptsAttachments, attachmentLimits: this.attachmentLimits }
      : { attachments: this.acceptsAttachments };
  }

  /** Completes the run now; a refusal is one line, anything that may pass later goes to the spool (spoolRunEnd). */
  private async sendRunEnd(request: CompleteRunRequest): Promise<void> {
    const status = this.endStatus();
    try {
      const outcome = await sendRunEnd(
        this.http,
        this.runId!,
        request,
        status,
        this.completeKey,
        this.config,
        this.deadline,
      );
      if (outcome.state === 'sent') {
        this.runEnd = { status, state: 'sent' };
      } else if (outcome.state === 'refused') {
        this.runEnd = { status, state: 'refused' };
        this.fail(`the run could not be completed: ${outcome.error.message}`);
      } else {
        this.fail(`the run could not be completed yet: ${outcome.error.message}`);
      }
    } catch (error) {
      this.fail(`internal error while completing the run: ${(error as Error).message}`);
    }
  }

  /** The run's end waits in the spool for replay, which sends it after the batches. */
  private spoolRunEnd(): void {
    const completion = this.completion();
    if (!completion || this.runEnd) return;
    const { request, ifAnnounced } = completion;
    const status = this.endStatus();
    try {
      this.spool.writeComplete({
        status,
        idempotencyKey: this.completeKey,
        request,
        ...(ifAnnounced ? { ifAnnounced } : {}),
      });
      this.runEnd = { status, state: 'spooled' };
    } catch (error) {
      this.fail((error as Error).message);
    }
  }

  private schedule(batch: Batch): void {
    this.pending.add(batch);
    this.queue
      .add(() => this.deliver(batch))
      .catch((error) => {
        this.fail(`internal error while sending results: ${(error as Error).message}`);
        this.spoolBatch(batch);
      });
  }

  /** Moves waiting batches from disk into the queue as it empties. */
  private refill(): void {
    while (!this.closed && this.queue.size < this.config.concurrency && this.overflow.size > 0) {
      const batch = this.overflow.shift();
      if (batch) this.schedule(batch);
    }
  }

  /** If the overflow file cannot be written, the batch is kept in memory instead: never lost. */
  private waitOnDisk(batch: Batch): void {
    try {
      this.overflow.push(batch);
    } catch {
      this.schedule(batch);
    }
  }

  private async deliver(batch: Batch): Promise<void> {
    const runId = await this.runIdPromise;
    if (!this.pending.has(batch)) return;
    if (runId === undefined || this.stopped || this.deadline.passed) {
      this.spoolBatch(batch);
      return;
    }
    if (this.marker && this.withFailures.has(batch)) {
      // Marked once, before its first attempt: every attempt and the spool carry one body.
      this.withFailures.delete(batch);
      const marker = this.marker;
      const body = await Promise.race([
        marker(batch.body).catch(() => batch.body),
        this.deadline.expired().then(() => batch.body),
      ]);
      if (!this.pending.has(batch)) return;
      batch.body = body;
    }
    const { delivered, left, failure } = await deliverBatch(
      this.http,
      runId,
      batch,
      this.config,
      this.deadline,
      {
        acceptsDetails: this.acceptsDetails,
        acceptsAttachments: this.acceptsAttachments,
        refusals: this.refusals,
        limits: this.resultLimits,
      },
    );
    // Spooled whole while in flight (the process is exiting, or the grace ran out).
    if (!this.pending.has(batch)) return;
    this.sayRefused();
    this.counts.delivered += delivered;
    if (failure) this.handleFailure(failure);
    this.settle(batch);
    for (const part of left) this.spoolBatch(part);
  }

  /** Never rejects: a run that cannot be created is `undefined`, and its batches are spooled. */
  private async createRun(): Promise<string | undefined> {
    try {
      this.run = withTags(this.run, (await this.init.moreTags?.catch(() => [])) ?? []);
    } catch {
      // The run goes without the tags it could not get.
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.createRunOnce(attempt);
      } catch (error) {
        // A test sharing the process may have replaced a built-in while the answer was read
        // (mocking libraries' own suites stub Array.prototype.filter between a hook and its
        // test): asked again with the same Idempotency-Key, the service answers the same run.
        if (attempt === 1 && !this.deadline.passed) {
          await sleep(CREATE_RUN_RETRY_MS, this.deadline.signal);
          continue;
        }
        this.fail(`the run could not be created: ${(error as Error).message}`);
        return undefined;
      }
    }
  }

  /** `attempt` 2 asks again with the same key: its answer is replayed from attempt 1's. */
  private async createRunOnce(attempt: number): Promise<string | undefined> {
    const outcome = await this.service.createRun(this.run, this.createKey);
    if (outcome.kind === 'ok') {
      this.pageUrl = outcome.pageUrl;
      if (this.config.failureDetails === 'auto') {
        this.acceptsDetails = outcome.extensions.includes(FAILURE_DETAILS_EXTENSION);
      }
      this.completionAnnounced = outcome.extensions.includes(COMPLETE_RUN_EXTENSION);
      this.extensions = outcome.extensions;
      this.acceptsAttachments = outcome.extensions.includes(ATTACHMENTS_EXTENSION);
      this.attachmentLimits = this.acceptsAttachments ? outcome.attachmentLimits : undefined;
      this.resultLimits = outcome.resultLimits;
      if (outcome.replayed && attempt === 1 && this.config.runKey && !this.init.sharesRunKey) {
        this.fail(reusedRunKeyLine(outcome.runId));
      }
      return outcome.runId;
    }
    this.handleFailure(outcome);
    return undefined;
  }

  /** Each result the service refused at fault: a line (the first few), counted, never spooled. */
  private sayRefused(): void {
    for (const refused of this.refusals.takeRefused()) {
      this.counts.refused += 1;
      const line = this.refusedLines.lineFor(refused);
      if (line) this.fail(line);
    }
  }

  private handleFailure(
    failure: NonNullable<BatchDelivery['failure']> | { kind: 'no-id'; error: Error },
  ): void {
    if (this.stopped) return;
    if (failure.kind === 'auth' || failure.kind === 'tls') {
      this.stopped = failure.kind === 'auth' ? 'refused-key' : 'tls';
      // Stops every request in flight or waiting to retry: with a refused key or a failed
      // handshake, every further request would fail the same way.
      this.deadline.expire();
      const what = failure.kind === 'auth' ? 'the service refused the API key: ' : '';
      this.fail(`${what}${failure.error.message.replace(/\.$/, '')}. Nothing more is sent in this run.`);
      return;
    }
    this.fail(failure.error.message);
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
    this.pending.delete(batch);
    this.refill();
    if (this.idle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private spoolBatch(batch: Batch): void {
    this.settle(batch);
    try {
      this.spool.writeBatch(batch);
      this.counts.spooled += batch.count;
    } catch (error) {
      this.counts.failed += batch.count;
      this.fail((error as Error).message);
    }
  }

  private spoolRunOnly(): void {
    try {
      this.spool.writeRunOnly();
    } catch (error) {
      this.fail((error as Error).message);
    }
  }

  /** Logs each distinct problem once. */
  private fail(message: string): void {
    if (this.errors.includes(message)) return;
    this.errors.push(message);
    this.init.log(message);
  }
}

/**
 * A run key that named a run before: a constant pasted into a CI config, or an id a re-run of
 * the job keeps (`github.run_id`). The service answered with the run the key made then, so
 * these results go into it beside the earlier ones; said once, not silently merged.
 */
export function reusedRunKeyLine(runId: string): string {
  return `the run key (TESTRUN_RUN_KEY) was used before: the service answered with the run it created then, ${runId}, so these results join it. Give each run, and each attempt of a CI job, a key of its own (docs/ci.md, "A run key").`;
}

/** How long an internal error while creating the run waits before its one more attempt. */
const CREATE_RUN_RETRY_MS = 50;

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
