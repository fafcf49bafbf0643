import type { SpoolAttachmentRecord } from '../attachments/spooled-file.js';
import { TestrunError } from '../errors.js';
import type { AttachmentLimits } from '../extensions.js';
import {
  COMPLETE_RUN_METHODS,
  type CompleteRunRequest,
  RUN_END_STATUSES,
  type RunEndStatus,
} from '../options/complete-run-request.js';
import type { Batch, RunPayload, TestResult } from '../types.js';

// The records of a spool file, and the check a replay makes before it sends any of them.
// The format and its compatibility promise are in docs/design/spool-and-replay.md#format.

/** First line of a spool file: which run its batches belong to. Never holds the API key. */
export interface SpoolRunRecord {
  type: 'run';
  /** The run's id, or null when it was never created (replay creates it). */
  runId: string | null;
  run: RunPayload;
  /** The key create-run was sent with, so a replayed create is not a second run. */
  idempotencyKey: string;
  /**
   * Whether batches go with why tests failed (the `failure-details` extension): decided by the
   * reporter once the run existed; absent when it never did, and replay's create-run answer decides.
   */
  failureDetails?: boolean | undefined;
  /**
   * Whether the run takes attached files (the `attachments` extension), and its limits: decided
   * once the run existed; absent when it never did, and replay's create-run answer decides.
   */
  attachments?: boolean | undefined;
  attachmentLimits?: AttachmentLimits | undefined;
  /** Where this service's create-run answer keeps the id, when the reporter was told. */
  runIdPath?: string | undefined;
  baseUrl: string;
  createdAt: string;
  /** The writing process, so a replay can tell an abandoned `.open` file from a live one (spool-owner.ts). */
  pid?: number;
  host?: string;
  processStart?: string;
  machine?: string;
}

export interface SpoolBatchRecord {
  type: 'batch';
  idempotencyKey: string;
  results: TestResult[];
}

/**
 * The run's end, for replay to send once every batch is delivered (`completeRun`): the
 * request as templates, since the run's id may be known only when replay creates it.
 */
export interface SpoolCompleteRecord {
  type: 'complete';
  status: RunEndStatus;
  idempotencyKey: string;
  request: CompleteRunRequest;
  /**
   * Sent only if the service announces `complete-run` (completeRun 'auto' for a run that was
   * never created): replay's own create-run answer decides.
   */
  ifAnnounced?: true;
}

export type { SpoolAttachmentRecord };

type Check = [path: string, holds: (value: unknown) => boolean, expected: string];

const isString = (value: unknown) => typeof value === 'string';
const isText = (value: unknown) => typeof value === 'string' && value !== '';

// Only what a replay uses is checked; fields it does not know are kept and ignored.
const RUN_RECORD: Check[] = [
  ['runId', (value) => value === null || isText(value), 'a non-empty string or null'],
  ['run', (value) => isObject(value), 'an object'],
  ['run.project', isString, 'a string'],
  ['run.framework', isString, 'a string'],
  ['run.tags', (value) => Array.isArray(value) && value.every(isString), 'an array of strings'],
  ['idempotencyKey', isText, 'a non-empty string'],
  ['baseUrl', isString, 'a string'],
  ['runIdPath', (value) => value === undefined || isString(value), 'a string when present'],
  ['failureDetails', (value) => value === undefined || typeof value === 'boolean', 'a boolean when present'],
  ['attachments', (value) => value === undefined || typeof value === 'boolean', 'a boolean when present'],
];
const ATTACHMENT_RECORD: Check[] = [
  ['sha256', (value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value), 'a SHA-256 in hex'],
  ['size', (value) => Number.isSafeInteger(value) && (value as number) >= 0, 'a number of bytes'],
  ['name', isString, 'a string'],
  ['path', (value) => value === undefined || isText(value), 'a non-empty string when present'],
  ['body', (value) => value === undefined || isString(value), 'base64 text when present'],
];
const BATCH_RECORD: Check[] = [
  ['idempotencyKey', isText, 'a non-empty string'],
  ['results', (value) => Array.isArray(value) && value.length > 0, 'a non-empty array'],
];
const COMPLETE_RECORD: Check[] = [
  ['status', (value) => RUN_END_STATUSES.includes(value as never), RUN_END_STATUSES.join(', ')],
  ['idempotencyKey', isText, 'a non-empty string'],
  [
    'request.method',
    (value) => COMPLETE_RUN_METHODS.includes(value as never),
    COMPLETE_RUN_METHODS.join(', '),
  ],
  ['request.path', isText, 'a non-empty string'],
  ['request.body', isString, 'a string'],
  ['ifAnnounced', (value) => value === undefined || value === true, 'true when present'],
];
const RESULT: Check[] = [
  ['testSuite', isString, 'a string'],
  ['testCase', isString, 'a string'],
  ['status', isText, 'a non-empty string'],
  ['duration', Number.isFinite, 'a number'],
];

/**
 * The run record, batches and run's end (the last one written, if any) of a spool file.
 * Throws a TestrunError (`TESTRUN_BAD_SPOOL_FILE`) naming the first line that is not what a
 * reporter writes.
 */
export function parseSpoolFile(text: string): {
  run: SpoolRunRecord;
  batches: SpoolBatchRecord[];
  complete: SpoolCompleteRecord | undefined;
  attachments: SpoolAttachmentRecord[];
} {
  const lines = text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== '');
  if (lines.length === 0) throw badFile('the file is empty');
  const records: unknown[] = [];
  for (const [i, { line, number }] of lines.entries()) {
    try {
      records.push(JSON.parse(line));
    } catch {
      // A process killed mid-write can leave a cut last line; the batches before it are whole.
      if (i < lines.length - 1 || i === 0) throw badFile(`line ${number} is not JSON`);
    }
  }
  const [run, ...rest] = records;
  checkRecord(run, 'run', RUN_RECORD, lines[0]!.number);
  const batches: SpoolBatchRecord[] = [];
  const attachments: SpoolAttachmentRecord[] = [];
  let complete: SpoolCompleteRecord | undefined;
  for (const [i, record] of rest.entries()) {
    const number = lines[i + 1]!.number;
    if (isObject(record) && record.type === 'complete') {
      checkRecord(record, 'complete', COMPLETE_RECORD, number);
      complete = record as unknown as SpoolCompleteRecord;
      continue;
    }
    if (isObject(record) && record.type === 'attachment') {
      checkRecord(record, 'attachment', ATTACHMENT_RECORD, number);
      attachments.push(record as unknown as SpoolAttachmentRecord);
      continue;
    }
    checkRecord(record, 'batch', BATCH_RECORD, number);
    for (const [j, result] of (record as unknown as SpoolBatchRecord).results.entries()) {
      const problem = firstProblem(result, RESULT, `results[${j}]`);
      if (problem) throw badFile(`line ${number}: ${problem}`);
    }
    batches.push(record as unknown as SpoolBatchRecord);
  }
  return { run: run as SpoolRunRecord, batches, complete, attachments };
}

function checkRecord(
  record: unknown,
  type: 'run' | 'batch' | 'complete' | 'attachment',
  checks: Check[],
  number: number,
): void {
  if (!isObject(record) || record.type !== type) {
    throw badFile(`line ${number} is not a ${type} record ({"type":"${type}",…})`);
  }
  const problem = firstProblem(record, checks);
  if (problem) throw badFile(`line ${number}: ${problem}`);
}

/** `name` is where the record sits in its line (`results[2]`); empty for the line's own record. */
function firstProblem(record: unknown, checks: Check[], name = ''): string | undefined {
  if (!isObject(record)) return `${name} must be an object, got ${kindOf(record)}`;
  for (const [path, holds, expected] of checks) {
    const value = path.split('.').reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), record);
    if (!holds(value)) return `${name ? `${name}.` : ''}${path} must be ${expected}, got ${kindOf(value)}`;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a value is, never the value: a spool file may hold anything, and lines are printed. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (value === '') return 'an empty string';
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}

function badFile(problem: string): TestrunError {
  return new TestrunError('TESTRUN_BAD_SPOOL_FILE', problem);
}

/**
 * A batch as one line of a spool file: `{"results":[…]}` becomes
 * `{"type":"batch","idempotencyKey":"…","results":[…]}` without parsing the body again.
 */
export function batchRecordLine(batch: Batch): string {
  return `{"type":"batch","idempotencyKey":${JSON.stringify(batch.idempotencyKey)},${batch.body.slice(1)}\n`;
}

/** A file to upload as one line of a spool file. */
export function attachmentRecordLine(record: Omit<SpoolAttachmentRecord, 'type'>): string {
  return `${JSON.stringify({ type: 'attachment', ...record })}\n`;
}

/** The run's end as one line of a spool file. */
export function completeRecordLine(record: Omit<SpoolCompleteRecord, 'type'>): string {
  return `${JSON.stringify({ type: 'complete', ...record })}\n`;
}
