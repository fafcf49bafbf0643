import { RunIdError } from '../errors.js';
import { type AttachmentLimits, type Extension, KNOWN_EXTENSIONS, type ResultLimits } from '../extensions.js';
import type { HttpClient } from '../http/client.js';
import { toRunPayload } from '../results/result-name.js';
import type { RunPayload } from '../types.js';
import type { Deadline } from './deadline.js';
import { type RetryPolicy, type SendOutcome, sendWithRetries } from './send-with-retries.js';

export type CreateRunOutcome =
  /**
   * `pageUrl`: the run's page, when the answer links one (see runPageUrl);
   * `extensions`: what the answer announces the service takes beyond the spec (extensions.ts);
   * `replayed`: the service answered from an earlier use of the Idempotency-Key
   * (`Idempotent-Replayed: true`): the run existed before this request.
   */
  | {
      kind: 'ok';
      runId: string;
      pageUrl: string | undefined;
      extensions: Extension[];
      /** What the answer says a file and the run's files may weigh (with the `attachments` extension). */
      attachmentLimits: AttachmentLimits | undefined;
      /** What the answer says one results request may hold. */
      resultLimits: ResultLimits | undefined;
      replayed: boolean;
    }
  | Exclude<SendOutcome, { kind: 'ok' }>
  /** Created, but the answer did not say which id the run has. */
  | { kind: 'no-id'; error: RunIdError };

/** POST /api/v1/runs and find the new run's id in whatever shape the service answers. */
export async function createRun(
  http: HttpClient,
  run: RunPayload,
  idempotencyKey: string,
  policy: RetryPolicy & { runIdPath?: string | undefined },
  deadline: Deadline,
): Promise<CreateRunOutcome> {
  const outcome = await sendWithRetries(
    http,
    '/api/v1/runs',
    // Cleaned here, on the way out, so a run spooled by an older version is sent clean too.
    JSON.stringify(toRunPayload(run)),
    idempotencyKey,
    policy,
    deadline,
  );
  if (outcome.kind !== 'ok') return outcome;
  const { response } = outcome;
  const runId = extractRunId(response.body, response.headers.location, policy.runIdPath);
  if (runId === undefined) {
    return { kind: 'no-id', error: new RunIdError(response.status, response.body, policy.runIdPath) };
  }
  return {
    kind: 'ok',
    runId,
    pageUrl: runPageUrl(response.headers.link, http.baseUrl),
    extensions: announcedExtensions(response.body, response.headers['testrun-extensions']),
    attachmentLimits: announcedAttachmentLimits(response.body, response.headers['testrun-attachment-limits']),
    resultLimits: announcedResultLimits(response.body, response.headers['testrun-result-limits']),
    replayed: response.headers['idempotent-replayed']?.trim().toLowerCase() === 'true',
  };
}

/**
 * The extensions create-run's answer announces that this client knows (extensions.ts): an
 * `extensions` array in its JSON body (at the top, or beside the id under `data` or `run`),
 * or a `Testrun-Extensions` header listing them (comma-separated). A service that says
 * nothing accepts nothing beyond the spec: it gets the spec's four fields and no other request.
 */
export function announcedExtensions(bodyText: string, header: string | undefined): Extension[] {
  const named = new Set(header?.split(',').map((name) => name.trim().toLowerCase()));
  const body = readJson(bodyText);
  for (const holder of [body, field(body, 'data'), field(body, 'run')]) {
    const listed = field(holder, 'extensions');
    if (Array.isArray(listed)) for (const name of listed) if (typeof name === 'string') named.add(name);
  }
  return KNOWN_EXTENSIONS.filter((extension) => named.has(extension));
}

/**
 * The attachments' limits create-run's answer gives beside its extensions: an `attachments`
 * object, `{ "maxFileBytes": 104857600, "maxRunBytes": 1073741824 }` (where `extensions` may
 * be), or a `Testrun-Attachment-Limits: max-file-bytes=…, max-run-bytes=…` header. Undefined
 * when it says neither: the service's 413 then says it, file by file.
 */
export function announcedAttachmentLimits(
  bodyText: string,
  header: string | undefined,
): AttachmentLimits | undefined {
  return announcedLimits(bodyText, header, 'attachments', {
    maxFileBytes: 'max-file-bytes',
    maxRunBytes: 'max-run-bytes',
  });
}

/**
 * What one results request may hold, as create-run's answer says it: a `results` object,
 * `{ "maxResults": 1000, "maxBytes": 5242880 }` (where `extensions` may be), or a
 * `Testrun-Result-Limits: max-results=…, max-bytes=…` header. Undefined when it says neither:
 * the service's 413 then says it, batch by batch.
 */
export function announcedResultLimits(
  bodyText: string,
  header: string | undefined,
): ResultLimits | undefined {
  return announcedLimits(bodyText, header, 'results', { maxResults: 'max-results', maxBytes: 'max-bytes' });
}

/**
 * Positive whole numbers an answer says under `holder` in its body (at the top, or under
 * `data` or `run`), or else in its header as `name=value, …`; undefined when it says none.
 */
function announcedLimits<Key extends string>(
  bodyText: string,
  header: string | undefined,
  holder: string,
  headerNames: Record<Key, string>,
): Record<Key, number | undefined> | undefined {
  const keys = Object.keys(headerNames) as Key[];
  const read = (said: (key: Key) => unknown) => {
    const limits = Object.fromEntries(keys.map((key) => [key, positiveCount(said(key))])) as Record<
      Key,
      number | undefined
    >;
    return keys.some((key) => limits[key] !== undefined) ? limits : undefined;
  };
  const body = readJson(bodyText);
  for (const at of [body, field(body, 'data'), field(body, 'run')]) {
    const limits = read((key) => field(field(at, holder), key));
    if (limits) return limits;
  }
  const named = Object.fromEntries(
    (header ?? '').split(',').map((part) =>
      part
        .trim()
        .toLowerCase()
        .split('=')
        .map((side) => side.trim()),
    ),
  ) as Record<string, string | undefined>;
  return read((key) => named[headerNames[key]]);
}

/** A positive whole number (of bytes, of results), as readJson keeps numbers (their text) or a header says them. */
function positiveCount(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
  const bytes = Number(value);
  return bytes > 0 ? bytes : undefined;
}

/**
 * A service that has a page per run says where with `Link: <url>; rel="alternate";
 * type="text/html"` on create-run (the local server does); a service that does not is
 * given no made-up link (docs/design/server-pages.md#the-runs-page).
 */
export function runPageUrl(link: string | undefined, baseUrl: string): string | undefined {
  for (const part of link?.split(/,(?=\s*<)/) ?? []) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const params = match[2]!.toLowerCase();
    if (!/;\s*rel="?alternate"?/.test(params) || !/;\s*type="?text\/html"?/.test(params)) continue;
    try {
      const url = new URL(match[1]!, `${baseUrl}/`);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
    } catch {}
  }
  return undefined;
}

/**
 * The spec does not say where create-run puts the new run's id, so we look where
 * services usually put it (docs/design/naming.md#run-id-extraction): `runIdPath` when given; a
 * `Location` header that names the run (`…/runs/{id}`); well-known body fields, the same
 * nested under `data` or `run`; then the last segment of any `Location` header. The id is
 * always the text the service wrote: a numeric id is never rounded (see readJson).
 */
const ID_FIELDS = ['id', 'runId', 'run_id', 'uuid'] as const;
const CONTAINERS = ['data', 'run'] as const;

export function extractRunId(
  bodyText: string,
  location: string | undefined,
  runIdPath?: string,
): string | undefined {
  const body = readJson(bodyText);
  if (runIdPath) return asId(valueAtPath(body, runIdPath));
  const fromBody = idIn(body) ?? firstOf(CONTAINERS.map((key) => idIn(field(body, key))));
  return idFromRunLocation(location) ?? fromBody ?? idFromLocation(location);
}

/**
 * A JSON answer with every number kept as the text the service wrote, or undefined when it
 * is not JSON. An id such as 9007199254740993 is past a double's precision: read as a
 * number it becomes …992, and every batch would go to a run that does not exist.
 */
export function readJson(text: string): unknown {
  try {
    JSON.parse(text);
    return JSON.parse(quoteNumbers(text));
  } catch {
    return undefined;
  }
}

/** Valid JSON with each number token written as a string of itself. */
function quoteNumbers(json: string): string {
  let quoted = '';
  let copiedUpTo = 0;
  for (let i = 0; i < json.length; i += 1) {
    const character = json[i]!;
    if (character === '"') {
      // Skip the string, escapes included: digits inside it are text already.
      for (i += 1; i < json.length && json[i] !== '"'; i += json[i] === '\\' ? 2 : 1);
    } else if (character === '-' || (character >= '0' && character <= '9')) {
      let end = i + 1;
      while (end < json.length && NUMBER_CHARACTER.test(json[end]!)) end += 1;
      quoted += `${json.slice(copiedUpTo, i)}"${json.slice(i, end)}"`;
      copiedUpTo = end;
      i = end - 1;
    }
  }
  return quoted + json.slice(copiedUpTo);
}

const NUMBER_CHARACTER = /[0-9eE+\-.]/;

function idIn(value: unknown): string | undefined {
  return firstOf(ID_FIELDS.map((key) => asId(field(value, key))));
}

function firstOf(values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined);
}

function field(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function valueAtPath(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((current, key) => field(current, key), value);
}

function asId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}

/** `…/runs/{id}`: a Location that names the run it created. */
function idFromRunLocation(location: string | undefined): string | undefined {
  const segments = locationSegments(location);
  return segments.at(-2) === 'runs' ? asId(decodeSegment(segments.at(-1)!)) : undefined;
}

/** The last segment of any Location. */
function idFromLocation(location: string | undefined): string | undefined {
  const segment = locationSegments(location).at(-1);
  return segment ? asId(decodeSegment(segment)) : undefined;
}

/** A Location's path segments, still encoded, without its query, fragment and empty segments; none without a Location. */
function locationSegments(location: string | undefined): string[] {
  return (location?.split(/[?#]/)[0] ?? '').split('/').filter(Boolean);
}

/** A malformed escape (`%E0%A4%A`) is kept as it came rather than failing the run. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
