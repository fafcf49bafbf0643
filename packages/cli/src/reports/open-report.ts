import fs from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

// Opening a report, whichever format it is in: gzip'd or not, told by its first bytes; which
// format it is in, told by its content (the one place that tells it); and what is wrong when
// it cannot be read. A report is opened once: the chunks read to tell its format are the
// first its reader gets.

export type ReportReadErrorCode =
  | 'REPORT_UNREADABLE'
  | 'JUNIT_MALFORMED'
  | 'JUNIT_NOT_JUNIT'
  | 'JUNIT_TOO_DEEP'
  | 'CTRF_MALFORMED'
  | 'CTRF_NOT_CTRF'
  | 'CTRF_TOO_DEEP'
  | 'TAP_EMPTY'
  | 'TAP_NOT_TAP'
  | 'TAP_TOO_DEEP';

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

/** The formats `testrun upload` reads, as `--format` names them. */
export const REPORT_FORMATS = ['junit', 'ctrf', 'tap'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What every "not a … report" message ends with. */
export const FORMATS_SENTENCE = 'Give testrun upload JUnit XML, CTRF JSON or TAP reports.';

const GZIP_MAGIC = [0x1f, 0x8b];
export const CHUNK_BYTES = 64 * 1024;

/** A report opened for its reader. */
export interface OpenedReport {
  format: ReportFormat;
  /** The report's bytes (gunzipped): the chunks read to tell its format, then the rest. */
  chunks: AsyncIterable<Buffer>;
  /** Closes the file: its reader is done with it, or never started. */
  close(): void;
}

/**
 * Opens the report once, gunzipping it when it starts with gzip's magic bytes, and tells its
 * format from its first characters (`format` given: that one). Its chunks are read by the
 * format's reader; the file is closed when they end or the reader stops.
 */
export async function openReport(
  file: string,
  shownAs: string,
  format?: ReportFormat,
): Promise<OpenedReport> {
  let stream: Readable;
  try {
    const handle = await fs.promises.open(file, 'r');
    const magic = Buffer.alloc(2);
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(magic, 0, 2, 0));
    } catch (error) {
      await handle.close();
      throw error;
    }
    const raw = handle.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES });
    stream =
      bytesRead === 2 && magic[0] === GZIP_MAGIC[0] && magic[1] === GZIP_MAGIC[1]
        ? // pipeline hands a read error on to the gunzip stream, whose reader then sees it; the
          // callback is required and has nothing left to do.
          pipeline(raw, createGunzip({ chunkSize: CHUNK_BYTES }), () => {})
        : raw;
  } catch (error) {
    throw unreadable(error, shownAs);
  }
  const iterator = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first: Buffer[] = [];
  try {
    // Up to the first character that is not whitespace: a report may start with blank lines.
    for (let text = ''; !/\S/.test(text); ) {
      const next = await iterator.next();
      if (next.done) break;
      first.push(next.value);
      text += first.length === 1 ? firstText(next.value) : next.value.toString('latin1');
    }
  } catch (error) {
    stream.destroy();
    throw unreadable(error, shownAs);
  }
  return {
    format: format ?? formatOf(first),
    chunks: chunksOf(first, iterator),
    close: () => stream.destroy(),
  };
}

async function* chunksOf(first: Buffer[], iterator: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield* first;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}

/**
 * A TAP line (https://testanything.org) a report may start with, after output that is not
 * TAP (`npm test` prints its command first): the version, a plan, a test point, a subtest,
 * a bail out.
 */
const TAP_LINE = /^(?:TAP version \d+\s*$|1\.\.\d+|(?:not )?ok\b|# Subtest\b|Bail out!)/m;

/**
 * Which format a report is in, by its first chunks: JSON (CTRF) starts with `{`, XML (JUnit)
 * with `<`; TAP has a line of TAP; anything else is read as JUnit XML, whose reader says what
 * is wrong with it. Whitespace and a byte order mark may come first.
 */
function formatOf(chunks: readonly Buffer[]): ReportFormat {
  const text = chunks
    .map((chunk, index) => (index === 0 ? firstText(chunk) : chunk.toString('latin1')))
    .join('');
  const first = /\S/.exec(text)?.[0];
  if (first === '{') return 'ctrf';
  if (first !== '<' && first !== undefined && TAP_LINE.test(text)) return 'tap';
  return 'junit';
}

/** The start of a chunk as text, enough to tell its format: UTF-16 by its byte order mark, else one byte a character. */
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
