import PQueue from 'p-queue';
import type { CreatedRun, OutstandingWork } from '../delivery/outstanding-work.js';
import type { SendFailure } from '../delivery/send-with-retries.js';
import type { Service } from '../delivery/service.js';
import type { ResolvedConfig } from '../options/config.js';
import { formatSize } from '../options/size-text.js';
import { redact, type SecretPattern, secretPattern } from '../output/redact.js';
import type {
  AttachmentRef,
  DeliverySummary,
  FileDeliverySummary,
  RawAttachment,
  TestResult,
} from '../types.js';
import {
  type Preparation,
  type PrepareContext,
  type PreparedFile,
  prepareFile,
  prepareFileSync,
  said,
} from './prepare.js';
import type { SpoolAttachmentRecord } from './spooled-file.js';
import { uploadFile } from './upload.js';

// The files of a run's results, from the adapter's hands to the service (docs/design/attachments.md): a result that names files waits only for their hashes, then goes on to be
// batched like any other; the bytes go beside the batches through a bounded queue, each file
// once, and the run's end waits for them within its deadline (the session's OutstandingWork).
// A file that cannot go is a line; the result always goes.

/** A result whose files the adapter attached, as the results stage hands it over. */
export interface HeldResult {
  result: TestResult;
  files: readonly RawAttachment[];
}

/** What the stage needs of its run's session (RunSession is one): the stage sits below it. */
export interface StageSession {
  readonly connection: Pick<Service, 'http' | 'deadline'>;
  readonly stoppedBy: DeliverySummary['stopped'];
  createdRun(): Promise<CreatedRun | undefined>;
  holdEndFor(work: OutstandingWork): void;
  spoolResults(results: TestResult[]): void;
  spoolAttachment(record: Omit<SpoolAttachmentRecord, 'type'>): void;
  noteFailure(failure: SendFailure): void;
  say(line: string): void;
}

export interface AttachmentStageInit {
  session: StageSession;
  config: Pick<
    ResolvedConfig,
    'maxAttachmentSize' | 'concurrency' | 'maxRetries' | 'requestTimeout' | 'apiKey'
  >;
  /** Hands results on towards delivery: the batcher, or the session once the run's end began. */
  deliver(results: TestResult[]): void;
}

/** A result waiting for its files' hashes. `done` once it went on (or to the spool). */
interface Holding {
  entry: HeldResult;
  done: boolean;
  finished: Promise<void>;
}

interface Upload {
  file: PreparedFile;
  state: 'queued' | 'sending' | 'sent' | 'refused' | 'spooled' | 'lost';
}

export class AttachmentStage implements OutstandingWork {
  private readonly held = new Set<Holding>();
  /** Every file of the run, by hash: a file many results share is uploaded once. */
  private readonly uploads = new Map<string, Upload>();
  private readonly queue: PQueue;
  /** The run as created, once known; undefined: it could not be created. */
  private run: CreatedRun | undefined | 'unknown' = 'unknown';
  /** Bytes of the run's distinct files so far, against the service's limit for a run. */
  private planned = 0;
  private readonly counts: FileDeliverySummary = { sent: 0, bytes: 0, spooled: 0, skipped: 0 };
  /** The API key's forms: text a test printed leaves without it, as why a test failed does. */
  private readonly secrets: SecretPattern | undefined;

  constructor(private readonly init: AttachmentStageInit) {
    this.queue = new PQueue({ concurrency: init.config.concurrency });
    this.secrets = secretPattern([init.config.apiKey]);
    init.session.holdEndFor(this);
  }

  add(entries: readonly HeldResult[]): void {
    for (const entry of entries) {
      const holding = { entry, done: false } as Holding;
      this.held.add(holding);
      holding.finished = this.prepare(holding)
        .catch((error) => {
          this.init.session.say(`internal error while preparing attached files: ${(error as Error).message}`);
          this.release(holding, entry.result);
        })
        .finally(() => this.held.delete(holding));
    }
  }

  /** Every held result went on and every file is sent, refused or spooled. */
  async settled(): Promise<void> {
    while (this.held.size > 0 || this.queue.size > 0 || this.queue.pending > 0) {
      await Promise.all([...this.held].map((holding) => holding.finished));
      await this.queue.onIdle();
    }
  }

  delivered(): boolean {
    if (this.held.size > 0) return false;
    for (const upload of this.uploads.values()) {
      if (upload.state !== 'sent' && upload.state !== 'refused') return false;
    }
    return true;
  }

  files(): FileDeliverySummary {
    return { ...this.counts };
  }

  /**
   * The deadline passed or the process is on its way out: each held result is hashed now,
   * synchronously, and spooled with its files' names; every file not yet uploaded is spooled
   * for replay (its path, or its bytes when it was only in memory).
   */
  spoolNow(): void {
    const results: TestResult[] = [];
    for (const holding of this.held) {
      if (holding.done) continue;
      holding.done = true;
      const { result, files } = holding.entry;
      if (this.run !== 'unknown' && this.run && !this.run.acceptsAttachments) {
        results.push(result);
        continue;
      }
      const refs: AttachmentRef[] = [];
      for (const raw of files) {
        const prepared = this.accept(prepareFileSync(raw, this.context(result)));
        if (!prepared) continue;
        refs.push(prepared.ref);
        this.track(prepared);
      }
      results.push(refs.length > 0 ? { ...result, attachments: refs } : result);
    }
    this.held.clear();
    this.queue.clear();
    for (const upload of this.uploads.values()) {
      if (upload.state === 'queued' || upload.state === 'sending') this.spoolUpload(upload);
    }
    this.init.session.spoolResults(results);
  }

  private async prepare(holding: Holding): Promise<void> {
    const { result, files } = holding.entry;
    const run = await this.init.session.createdRun();
    this.run = run;
    if (holding.done) return;
    if (run && !run.acceptsAttachments) {
      this.release(holding, result);
      return;
    }
    const refs: AttachmentRef[] = [];
    const ready: PreparedFile[] = [];
    for (const raw of files) {
      const preparation = await prepareFile(raw, this.context(result));
      // Spooled meanwhile (the deadline, or the process going away): spoolNow took the result.
      if (holding.done) return;
      const prepared = this.accept(preparation);
      if (!prepared) continue;
      refs.push(prepared.ref);
      ready.push(prepared);
    }
    this.release(holding, refs.length > 0 ? { ...result, attachments: refs } : result);
    for (const file of ready) this.track(file);
  }

  private release(holding: Holding, result: TestResult): void {
    if (holding.done) return;
    holding.done = true;
    this.init.deliver([result]);
  }

  /** The file a preparation made, unless it was skipped or would take the run past its limit (a line each). */
  private accept(preparation: Preparation): PreparedFile | undefined {
    if (preparation.kind === 'skipped') {
      this.counts.skipped += 1;
      this.init.session.say(preparation.line);
      return undefined;
    }
    const { file } = preparation;
    if (this.uploads.has(file.ref.sha256)) return file;
    const maxRunBytes = this.run !== 'unknown' ? this.run?.attachmentLimits?.maxRunBytes : undefined;
    if (maxRunBytes !== undefined && this.planned + file.ref.size > maxRunBytes) {
      this.counts.skipped += 1;
      this.init.session.say(
        `${said(file.ref.name, file)} (${formatSize(file.ref.size)}) would take the run's files past the service's limit for a run (${formatSize(maxRunBytes)}): not uploaded; the result is sent without it`,
      );
      return undefined;
    }
    this.planned += file.ref.size;
    return file;
  }

  /** Queues the file's upload, once per hash. */
  private track(file: PreparedFile): void {
    if (this.uploads.has(file.ref.sha256)) return;
    const upload: Upload = { file, state: 'queued' };
    this.uploads.set(file.ref.sha256, upload);
    this.queue
      .add(() => this.upload(upload))
      .catch((error) => {
        this.init.session.say(`internal error while uploading a file: ${(error as Error).message}`);
        if (upload.state === 'queued' || upload.state === 'sending') this.spoolUpload(upload);
      });
  }

  private async upload(upload: Upload): Promise<void> {
    const { session, config } = this.init;
    const run = await session.createdRun();
    if (upload.state !== 'queued') return;
    const { http, deadline } = session.connection;
    if (!run || session.stoppedBy || deadline.passed) {
      this.spoolUpload(upload);
      return;
    }
    upload.state = 'sending';
    const { ref, source } = upload.file;
    const outcome = await uploadFile(http, run.runId, { ...ref, source }, config, deadline);
    // Spooled while in flight (the process going away): the spool has it, and replay sends it once.
    if (upload.state !== 'sending') return;
    const what = `${said(ref.name, upload.file)} (${formatSize(ref.size)})`;
    switch (outcome.kind) {
      case 'ok':
        upload.state = 'sent';
        this.counts.sent += 1;
        this.counts.bytes += ref.size;
        return;
      case 'too-large':
        upload.state = 'refused';
        this.counts.skipped += 1;
        session.say(
          `${what} was refused by the service as too large: ${outcome.error.message}; the result is stored without it`,
        );
        return;
      case 'rejected':
        upload.state = 'refused';
        this.counts.skipped += 1;
        session.say(`${what} was refused by the service: ${outcome.error.message}`);
        return;
      case 'auth':
      case 'tls':
        session.noteFailure(outcome);
        this.spoolUpload(upload);
        return;
      case 'gave-up':
        session.say(outcome.error.message);
        this.spoolUpload(upload);
        return;
    }
  }

  private spoolUpload(upload: Upload): void {
    const { ref, source, test } = upload.file;
    try {
      this.init.session.spoolAttachment({
        sha256: ref.sha256,
        size: ref.size,
        name: ref.name,
        test,
        ...('path' in source ? { path: source.path } : { body: source.bytes.toString('base64') }),
      });
      upload.state = 'spooled';
      this.counts.spooled += 1;
    } catch (error) {
      upload.state = 'lost';
      this.counts.skipped += 1;
      this.init.session.say((error as Error).message);
    }
  }

  private context(result: TestResult): PrepareContext {
    const fromService = this.run !== 'unknown' ? this.run?.attachmentLimits?.maxFileBytes : undefined;
    const own = this.init.config.maxAttachmentSize;
    const byService = fromService !== undefined && fromService < own;
    return {
      test: `${result.testSuite} > ${result.testCase}`,
      maxBytes: byService ? fromService : own,
      limitSaidBy: byService ? 'service' : 'option',
      redact: (text) => redact(text, this.secrets),
    };
  }
}
