import { monotonicNow } from '../clock.js';
import { runPageUrl } from '../delivery/create-run.js';
import { sendWithRetries } from '../delivery/send-with-retries.js';
import { openService } from '../delivery/service.js';
import { READ_RUNS_EXTENSION } from '../extensions.js';
import type { ResolvedConfig } from '../options/config.js';
import { redact, secretPattern } from '../output/redact.js';
import { randomUUID } from '../random-uuid.js';
import type { Get, SummaryPart, SummaryState, TallyData } from '../summary/index.js';
import type { TestResult } from '../types.js';

// The hand-off from a run's end to its CI summary
// (docs/design/ci-summary.md#loaded-only-when-used). The summary itself is a bundle of its own
// (summary/), imported here, and only here, when a summary or a part of one is written: a run on a
// machine with no summary loads none of it.

/**
 * A folder that a process handing its run to others (`testrun run`, WebdriverIO's launcher)
 * gives them: each reporter leaves there what it sent, instead of writing a summary itself.
 */
export const SUMMARY_PARTS_VAR = 'TESTRUN_SUMMARY_PARTS';

type SummaryModule = typeof import('../summary/index.js');
let summaryModule: Promise<SummaryModule> | undefined;

/** The summary bundle, loaded once, when first needed. */
export function loadSummary(): Promise<SummaryModule> {
  summaryModule ??= import('../summary/index.js');
  return summaryModule;
}

/** Where a reporter leaves its part, when a process above it writes the summary. */
export function summaryPartsDir(env: NodeJS.ProcessEnv): string | undefined {
  return env[SUMMARY_PARTS_VAR]?.trim() || undefined;
}

/** What the process writing a summary knows of the run besides its results. */
export interface SummaryRun {
  project: string;
  framework: string;
  runId: string | undefined;
  pageUrl: string | undefined;
  state: SummaryState;
  durationMs: number | undefined;
}

/**
 * A reporter's tally of what it sends, for the summary of the run it ends or for the part it
 * leaves for the process that ends it. Results that come before the summary bundle has
 * loaded wait in a list for it (milliseconds at the start of a run).
 */
export class SummaryFeed {
  private tally: import('../summary/index.js').RunTally | undefined;
  private waiting: (readonly TestResult[])[] = [];
  private readonly startedAt = monotonicNow();
  /** The bundle, once loaded: the exit path writes with it synchronously. */
  private summary: SummaryModule | undefined;
  /** Which failures were quarantined tests', once quarantine judged them (run-reporter.ts). */
  private quarantined:
    | { isQuarantined: (testSuite: string, testCase: string) => boolean; count: number }
    | undefined;

  /** A feed when this reporter writes a summary or a part of one; undefined otherwise, and nothing is loaded. */
  static for(config: ResolvedConfig, env: NodeJS.ProcessEnv): SummaryFeed | undefined {
    const partsDir = summaryPartsDir(env);
    return partsDir || config.summary !== false ? new SummaryFeed(config, partsDir) : undefined;
  }

  private constructor(
    private readonly config: ResolvedConfig,
    private readonly partsDir: string | undefined,
  ) {
    loadSummary().then(
      (summary) => {
        this.summary = summary;
        this.tally = new summary.RunTally(config.statusMap, config.durationUnit);
        for (const results of this.waiting) this.tally.addAll(results);
        this.waiting = [];
      },
      () => {},
    );
  }

  add(results: readonly TestResult[]): void {
    if (this.tally) this.tally.addAll(results);
    else this.waiting.push(results);
  }

  /** Marks the quarantined tests' failures, applied to the tally before it is written. */
  markQuarantined(isQuarantined: (testSuite: string, testCase: string) => boolean, count: number): void {
    this.quarantined = { isQuarantined, count };
  }

  get durationMs(): number {
    return monotonicNow() - this.startedAt;
  }

  /**
   * At the run's end: the part for the process that ends the run, or, for the reporter that
   * ends it, the summary. Never throws: a summary that cannot be written is one line.
   */
  async finish(
    run: SummaryRun,
    part: Omit<SummaryPart, 'tally'>,
    endsItsRun: boolean,
    log: (line: string) => void,
  ): Promise<void> {
    try {
      const summary = await loadSummary();
      if (this.quarantined && this.tally) {
        this.tally.markQuarantined(this.quarantined.isQuarantined, this.quarantined.count);
      }
      const tally = this.tally?.toJSON() ?? summary.emptyTally();
      if (this.partsDir) {
        summary.writePart(this.partsDir, { ...part, tally });
      } else if (endsItsRun && this.config.summary !== false) {
        const notes = spoolNotes([part]);
        writeSummary(
          summary,
          this.config,
          { ...run, durationMs: this.durationMs },
          tally,
          { whole: true },
          notes,
          log,
        );
      }
    } catch (error) {
      log(`the CI summary could not be written: ${(error as Error).message}`);
    }
  }

  /** On the way out (a signal, `process.exit`): the part, synchronously, with what had finished. */
  finishNow(part: Omit<SummaryPart, 'tally'>): void {
    if (!this.partsDir || !this.tally || !this.summary) return;
    try {
      this.summary.writePart(this.partsDir, { ...part, tally: this.tally.toJSON(), cutShort: true });
    } catch {
      // The process is on its way out: the spool has the results.
    }
  }
}

/** The summary's tally of a run handed to others, and what it covers. */
export interface GatheredRun {
  tally: TallyData;
  covers: { whole: true } | { whole: false; why: string };
  /** The run's page, where the service's read of it links one. */
  pageUrl: string | undefined;
  /** The service's own state of the run, where it was read. */
  state: string | undefined;
  /** The run's project and framework, where the service's read said. */
  project: string | undefined;
  framework: string | undefined;
  /** Created to ended (or to its last results), where the service said. */
  durationMs: number | undefined;
  notes: string[];
}

export interface GatherInit {
  config: ResolvedConfig;
  runId: string | undefined;
  /** What the service announced; undefined for a bare id, which is asked. */
  extensions: readonly string[] | undefined;
  /** The folder the reporters left their parts in (`testrun run`, WebdriverIO's launcher). */
  partsDir?: string | undefined;
  userAgent: string;
  env?: NodeJS.ProcessEnv;
  /** Why the service was not reached, when it was not (no run was created): the parts are all there is. */
  unreachable?: boolean;
}

/**
 * The tally of a run that other processes reported into: read from the service where it
 * offers reads (`read-runs`, or a bare id, which is asked), so that it covers the whole run;
 * else from the parts the reporters of this process's command left, which cover what they sent.
 */
export async function gatherRun(init: GatherInit): Promise<GatheredRun> {
  const summary = await loadSummary();
  const parts = init.partsDir ? summary.readParts(init.partsDir) : [];
  const notes = spoolNotes(parts);
  const offersReads = init.extensions === undefined || init.extensions.includes(READ_RUNS_EXTENSION);
  let why = 'the service offers no reads of a run';
  if (init.runId !== undefined && offersReads && !init.unreachable) {
    const tally = new summary.RunTally(init.config.statusMap, init.config.durationUnit);
    const read = await readFromService(summary, init, init.runId, tally);
    if ('run' in read) {
      const created = Date.parse(read.run.createdAt ?? '');
      const until = Date.parse(read.run.endedAt ?? read.run.lastReceivedAt ?? '');
      return {
        tally: tally.toJSON(),
        covers: { whole: true },
        pageUrl: read.pageUrl,
        state: read.run.state,
        project: read.run.project,
        framework: read.run.framework,
        durationMs: until >= created ? until - created : undefined,
        notes,
      };
    }
    why = `reading the run from the service failed (${read.problem})`;
  } else if (init.unreachable) {
    why = 'the service could not be reached';
  }
  const tally = new summary.RunTally(init.config.statusMap, init.config.durationUnit);
  for (const part of parts) tally.merge(part.tally);
  return {
    tally: tally.toJSON(),
    covers: { whole: false, why },
    pageUrl: undefined,
    state: undefined,
    project: undefined,
    framework: undefined,
    durationMs: undefined,
    notes,
  };
}

async function readFromService(
  summary: SummaryModule,
  init: GatherInit,
  runId: string,
  tally: import('../summary/index.js').RunTally,
) {
  const { config } = init;
  const service = openService({ ...config, userAgent: init.userAgent, env: init.env ?? process.env });
  service.deadline.start(config.flushTimeout);
  const get: Get = async (path) => {
    const outcome = await sendWithRetries(service.http, path, '', randomUUID(), config, service.deadline, {
      method: 'GET',
    });
    if (outcome.kind !== 'ok') return { ok: false, problem: outcome.error.message };
    const pageUrl = runPageUrl(outcome.response.headers.link, service.http.baseUrl);
    return { ok: true, body: outcome.response.body, pageUrl };
  };
  try {
    return await summary.readRun(get, runId, tally);
  } finally {
    await service.close();
  }
}

/**
 * Writes the summary of `run` to the configured file (or to `print`, given), the API key
 * redacted from it whatever a test named itself. Never throws: a summary that cannot be
 * written is one line.
 */
export async function writeRunSummary(
  config: ResolvedConfig,
  run: SummaryRun,
  gathered: Pick<GatheredRun, 'tally' | 'covers' | 'notes'>,
  log: (line: string) => void,
  print?: (markdown: string) => void,
): Promise<void> {
  if (config.summary === false && !print) return;
  try {
    const summary = await loadSummary();
    writeSummary(summary, config, run, gathered.tally, gathered.covers, gathered.notes, log, print);
  } catch (error) {
    log(`the CI summary could not be written: ${(error as Error).message}`);
  }
}

function writeSummary(
  summary: SummaryModule,
  config: ResolvedConfig,
  run: SummaryRun,
  tally: TallyData,
  covers: GatheredRun['covers'],
  notes: readonly string[],
  log: (line: string) => void,
  print?: (markdown: string) => void,
): void {
  const markdown = summary.renderSummary({ ...run, tally, covers, statusWords: config.statusMap, notes });
  const clean = redact(markdown, secretPattern([config.apiKey]));
  if (print) {
    print(clean);
    return;
  }
  if (config.summary === false) return;
  try {
    summary.appendSummary(config.summary, clean);
  } catch (error) {
    log(`the CI summary could not be written to ${config.summary}: ${(error as Error).message}`);
  }
}

/** A line for results that wait in the spool, from what each reporter said. */
function spoolNotes(parts: readonly Pick<SummaryPart, 'spooled' | 'spoolFile'>[]): string[] {
  const spooled = parts.reduce((sum, part) => sum + part.spooled, 0);
  if (spooled === 0) return [];
  return [
    `${spooled} ${spooled === 1 ? 'result' : 'results'} could not be delivered yet: they wait in the spool, and npx @testrun/cli replay sends them.`,
  ];
}
