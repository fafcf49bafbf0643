import fs from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

// Opening a report, whichever format it is in: gzip'd or not, told by its first bytes; and
// what is wrong when it cannot be read.

export type ReportReadErrorCode =
  | 'REPORT_UNREADABLE'
  | 'JUNIT_MALFORMED'
  | 'JUNIT_NOT_JUNIT'
  | 'CTRF_MALFORMED'
  | 'CTRF_NOT_CTRF';

/**
 * A report that cannot be read; the message names the file, and the line where there is
 * one. Its own codes: core's ErrorCode is about delivery, this is about the input.
 */
export class ReportReadError extends Error {
  readonly code: ReportReadErrorCode;
  readonly file: string;
  readonly line: number | undefined;

  constructor(code: ReportReadErrorCode, file: string, message: string, line?: number) {
    super(message);
    this.name = 'ReportReadError';
    this.code = code;
    this.file = file;
    this.line = line;
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];
export const CHUNK_BYTES = 64 * 1024;

/** A read stream of the report's bytes, gunzipped when the file starts with gzip's magic bytes. */
export async function openReport(file: string, shownAs: string): Promise<Readable> {
  let first: Buffer;
  try {
    const handle = await fs.promises.open(file, 'r');
    try {
      first = Buffer.alloc(2);
      const { bytesRead } = await handle.read(first, 0, 2, 0);
      first = first.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(error, shownAs);
  }
  const raw = fs.createReadStream(file, { highWaterMark: CHUNK_BYTES });
  if (first[0] !== GZIP_MAGIC[0] || first[1] !== GZIP_MAGIC[1]) return raw;
  // pipeline hands a read error on to the gunzip stream, whose reader then sees it; the
  // callback is required and has nothing left to do.
  return pipeline(raw, createGunzip({ chunkSize: CHUNK_BYTES }), () => {});
}

/** Which format a report is in, by its content: JSON (CTRF) starts with `{`, anything else is read as JUnit XML. */
export type ReportFormat = 'junit' | 'ctrf';

/** Reads the report's first bytes (gunzipped) and tells its format; whitespace and a byte order mark may come first. */
export async function detectFormat(file: string, shownAs: string): Promise<ReportFormat> {
  const stream = await openReport(file, shownAs);
  try {
    let firstChunk = true;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = firstChunk ? firstText(chunk) : chunk.toString('latin1');
      firstChunk = false;
      const first = /\S/.exec(text)?.[0];
      if (first !== undefined) return first === '{' ? 'ctrf' : 'junit';
    }
    // Empty, or only whitespace: the JUnit reader says so.
    return 'junit';
  } catch (error) {
    throw unreadable(error, shownAs);
  } finally {
    stream.destroy();
  }
}

/** The start of a chunk as text, enough to find its first character: UTF-16 by its byte order mark, else one byte a character. */
function firstText(chunk: Buffer): string {
  if (chunk[0] === 0xff && chunk[1] === 0xfe) return chunk.subarray(2).toString('utf16le');
  if (chunk[0] === 0xfe && chunk[1] === 0xff)
    return Buffer.from(chunk.subarray(2, chunk.length - (chunk.length % 2)))
      .swap16()
      .toString('utf16le');
  const start = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
  return chunk.subarray(start).toString('latin1');
}

/** What a failed read of `shownAs` is thrown as: a ReportReadError as it is, anything else as one naming the file and why. */
export function unreadable(error: unknown, shownAs: string): ReportReadError {
  if (error instanceof ReportReadError) return error;
  return new ReportReadError(
    'REPORT_UNREADABLE',
    shownAs,
    `${shownAs}: cannot be read: ${describeReadError(error)}`,
  );
}

function describeReadError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory; give files, or a glob such as "reports/**/*.xml"';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
    return `it starts like gzip but does not unzip (${message})`;
  return message;
}
