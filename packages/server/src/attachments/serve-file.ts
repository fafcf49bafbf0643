import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AttachmentLedger } from './attachment-ledger.js';
import type { ByteRange } from './blob-store.js';

// An attached file as a browser or a client gets it: whatever it holds (an uploaded .html or
// .svg with script included), it can never run script in this server's origin, where the pages
// and their cookie live (docs/design/attachments.md):
// - `Content-Security-Policy: sandbox` without allow-scripts: opened as a document, the file
//   runs no script and has an origin of its own, so it reaches nothing of ours;
// - only types a browser shows without running anything are served as themselves, inline
//   (images, videos, plain text); anything else is `application/octet-stream`, an attachment
//   to save, with `X-Content-Type-Options: nosniff` so no browser guesses it back into HTML;
// - `Cross-Origin-Resource-Policy: same-origin`: another site cannot embed it.
// The name only names the download; the bytes are found by the run and the hash alone.

/** Types served as themselves and inline: a browser shows them, and they run nothing. */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'video/webm',
  'video/mp4',
  'text/plain',
]);

/** The policy of a served file: no script, no plugin, no frame; its own images and media only. */
export const FILE_CONTENT_SECURITY_POLICY =
  "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** How a file of `contentType` is served: as itself inline, or as bytes to save. */
export function servedType(contentType: string | undefined): { type: string; inline: boolean } {
  const base = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!INLINE_TYPES.has(base)) return { type: 'application/octet-stream', inline: false };
  return { type: base === 'text/plain' ? 'text/plain; charset=utf-8' : base, inline: true };
}

/** `inline; filename="screenshot.png"; filename*=UTF-8''…`: any name, never a header's syntax broken. */
export function contentDisposition(name: string, inline: boolean): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The first range of a `Range: bytes=…` header, within `size`; 'unsatisfiable' past the end; undefined for the whole file. */
export function requestedRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Sends the run's file `sha256` (or its range), or what `notFound` answers. */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  ledger: AttachmentLedger,
  file: { runId: string; sha256: string; name: string; contentType: string | undefined },
  notFound: () => unknown,
): Promise<unknown> {
  const found = await ledger.fileOf(file.runId, file.sha256);
  if (!found) return notFound();
  const { type, inline } = servedType(file.contentType);
  reply.headers({
    'content-type': type,
    'content-disposition': contentDisposition(file.name, inline),
    'content-security-policy': FILE_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    // The bytes of a hash never change.
    'cache-control': 'private, max-age=31536000, immutable',
    etag: `"${file.sha256}"`,
    'accept-ranges': 'bytes',
  });
  if (request.headers['if-none-match'] === `"${file.sha256}"`) return reply.code(304).send();
  const range = requestedRange(request.headers.range, found.size);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${found.size}`).send();
  }
  const length = range ? range.end - range.start + 1 : found.size;
  reply.header('content-length', String(length));
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${found.size}`);
  if (length === 0) return reply.send();
  // A HEAD is answered from the same stream, which Fastify ends unread, keeping the length.
  return reply.send(ledger.read(file.sha256, found.size, range));
}
