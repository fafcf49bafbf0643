import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { formatSize } from '../options/size-text.js';
import type { AttachmentRef, RawAttachment } from '../types.js';
import { contentTypeOf } from './content-type.js';

// A file an adapter attached, made into what a result names (its hash, size, name and type)
// and what the upload reads (its path, or its bytes when it was only in memory). Checked here,
// once: a file that is gone, not a file, or over the size limit is a line, never an error.

/** A name is cut at this many characters: a file's name, not a document. */
export const MAX_ATTACHMENT_NAME = 256;

export interface PreparedFile {
  ref: AttachmentRef;
  /** Where the bytes are: the file (read anew by each attempt), or memory. */
  source: { path: string } | { bytes: Buffer };
  /** The test it belongs to, `suite > test`, for the lines that say what became of it. */
  test: string;
}

export type Preparation = { kind: 'ready'; file: PreparedFile } | { kind: 'skipped'; line: string };

export interface PrepareContext {
  /** The test's name as lines write it. */
  test: string;
  /** The largest file sent: the option's, or the service's when smaller. */
  maxBytes: number;
  /** Which of the two set it, for the line. */
  limitSaidBy: 'option' | 'service';
  /** Removes the API key from text a test printed or attached in memory (never from files on disk). */
  redact?: (text: string) => string;
}

/** Reads and hashes the file as a stream: never whole in memory. */
export async function prepareFile(raw: RawAttachment, context: PrepareContext): Promise<Preparation> {
  const described = describe(raw, context);
  if (described.kind === 'skipped') return described;
  const { name, contentType, attempt } = described;
  if ('bytes' in described)
    return ready(described.bytes, hashOf(described.bytes), name, contentType, attempt, context);
  const file = described.path;
  let size: number;
  try {
    size = await checkedSize(file, name, context);
  } catch (error) {
    return { kind: 'skipped', line: (error as Error).message };
  }
  try {
    const { sha256, read } = await hashFile(file);
    if (read !== size)
      return { kind: 'skipped', line: `${said(name, context)} changed while it was read: not uploaded` };
    return { kind: 'ready', file: fileOf({ path: file }, sha256, size, name, contentType, attempt, context) };
  } catch (error) {
    return { kind: 'skipped', line: unreadable(name, context, error) };
  }
}

/** The same, synchronously: for a process on its way out, which can wait for nothing. */
export function prepareFileSync(raw: RawAttachment, context: PrepareContext): Preparation {
  const described = describe(raw, context);
  if (described.kind === 'skipped') return described;
  const { name, contentType, attempt } = described;
  if ('bytes' in described)
    return ready(described.bytes, hashOf(described.bytes), name, contentType, attempt, context);
  try {
    const size = fs.statSync(described.path).size;
    const limited = overLimit(size, name, context);
    if (limited) return { kind: 'skipped', line: limited };
    const { sha256, read } = hashFileSync(described.path);
    if (read !== size)
      return { kind: 'skipped', line: `${said(name, context)} changed while it was read: not uploaded` };
    return {
      kind: 'ready',
      file: fileOf({ path: described.path }, sha256, size, name, contentType, attempt, context),
    };
  } catch (error) {
    return { kind: 'skipped', line: unreadable(name, context, error) };
  }
}

type Described =
  | { kind: 'skipped'; line: string }
  | { kind: 'described'; name: string; contentType: string; attempt: number | undefined; path: string }
  | { kind: 'described'; name: string; contentType: string; attempt: number | undefined; bytes: Buffer };

/** The name, type and attempt of a raw attachment, and where its bytes are. */
function describe(raw: RawAttachment, context: PrepareContext): Described {
  const file = typeof raw.path === 'string' && raw.path !== '' ? raw.path : undefined;
  const name = attachmentName(raw.name, file);
  const contentType = contentTypeOf(raw.contentType, file ?? name);
  const attempt =
    typeof raw.attempt === 'number' &&
    Number.isInteger(raw.attempt) &&
    raw.attempt >= 1 &&
    raw.attempt <= 1000
      ? raw.attempt
      : undefined;
  const bytes = redacted(bytesOf(raw.body), typeof raw.body === 'string' || isText(contentType), context);
  if (bytes) {
    const limited = overLimit(bytes.length, name, context);
    return limited
      ? { kind: 'skipped', line: limited }
      : { kind: 'described', name, contentType, attempt, bytes };
  }
  if (file === undefined)
    return { kind: 'skipped', line: `${said(name, context)} has neither a path nor a body: not uploaded` };
  if (!path.isAbsolute(file)) {
    return { kind: 'skipped', line: `${said(name, context)} names a relative path (${file}): not uploaded` };
  }
  return { kind: 'described', name, contentType, attempt, path: file };
}

/** What the attachment is called: its name, else its file's, cleaned like a test's name and cut. */
export function attachmentName(given: unknown, file: string | undefined): string {
  const text = typeof given === 'string' && given.trim() !== '' ? given : file ? path.basename(file) : '';
  // Control characters (a name is one line) and lone surrogates (no UTF-8 form) become spaces.
  const cleaned = text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .trim();
  if (cleaned === '') return 'attachment';
  const points = [...cleaned];
  return points.length <= MAX_ATTACHMENT_NAME ? cleaned : points.slice(0, MAX_ATTACHMENT_NAME).join('');
}

/** A type whose bytes are text: what a test printed or noted, never a picture. */
function isText(contentType: string): boolean {
  return /^text\/|^application\/(json|xml)|\+(json|xml)\b/.test(contentType);
}

/** Text in memory (a test's output, an attached note) without the API key, in any form it may take. */
function redacted(
  bytes: Buffer | undefined,
  isTextual: boolean,
  context: PrepareContext,
): Buffer | undefined {
  if (!bytes || !isTextual || !context.redact) return bytes;
  const text = bytes.toString('utf8');
  const clean = context.redact(text);
  return clean === text ? bytes : Buffer.from(clean, 'utf8');
}

function bytesOf(given: unknown): Buffer | undefined {
  let body = given;
  try {
    if (typeof given === 'function') body = given();
  } catch {
    return undefined;
  }
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return undefined;
}

async function checkedSize(file: string, name: string, context: PrepareContext): Promise<number> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (error) {
    throw new Error(unreadable(name, context, error));
  }
  if (!stat.isFile()) throw new Error(`${said(name, context)} (${file}) is not a file: not uploaded`);
  const limited = overLimit(stat.size, name, context);
  if (limited) throw new Error(limited);
  return stat.size;
}

function overLimit(size: number, name: string, context: PrepareContext): string | undefined {
  if (size <= context.maxBytes) return undefined;
  const whose =
    context.limitSaidBy === 'option' ? 'the maxAttachmentSize option' : "the service's limit for a file";
  return `${said(name, context)} is ${formatSize(size)}, over ${whose} (${formatSize(context.maxBytes)}): not uploaded; the result is sent without it`;
}

function hashFile(file: string): Promise<{ sha256: string; read: number }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let read = 0;
    fs.createReadStream(file)
      .on('data', (chunk) => {
        hash.update(chunk);
        read += chunk.length;
      })
      .once('error', reject)
      .once('end', () => resolve({ sha256: hash.digest('hex'), read }));
  });
}

/** A file's SHA-256 and how many bytes were read, synchronously, a megabyte at a time. */
export function hashFileSync(file: string): { sha256: string; read: number } {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.alloc(1024 * 1024);
  let read = 0;
  try {
    for (let got = fs.readSync(fd, chunk); got > 0; got = fs.readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, got));
      read += got;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { sha256: hash.digest('hex'), read };
}

export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function ready(
  bytes: Buffer,
  sha256: string,
  name: string,
  contentType: string,
  attempt: number | undefined,
  context: PrepareContext,
): Preparation {
  return {
    kind: 'ready',
    file: fileOf({ bytes }, sha256, bytes.length, name, contentType, attempt, context),
  };
}

function fileOf(
  source: PreparedFile['source'],
  sha256: string,
  size: number,
  name: string,
  contentType: string,
  attempt: number | undefined,
  context: PrepareContext,
): PreparedFile {
  const ref: AttachmentRef = { name, contentType, size, sha256 };
  if (attempt !== undefined) ref.attempt = attempt;
  return { ref, source, test: context.test };
}

/** `attachment "screenshot" of "cart > adds"`: how every line names a file. */
export function said(name: string, context: { test: string }): string {
  return `attachment ${JSON.stringify(name)} of ${JSON.stringify(context.test)}`;
}

function unreadable(name: string, context: PrepareContext, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${said(name, context)} is gone (its file no longer exists): not uploaded`;
  return `${said(name, context)} could not be read (${code ?? (error as Error).message}): not uploaded`;
}
