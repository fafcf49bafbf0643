import type { AttachmentRef, StoredResult } from '../ledger/store.js';
import { runFilePath, traceViewerPath } from '../paths.js';
import { formatBytes } from './format.js';
import { html, type SafeHtml } from './html.js';

// The files a failed test attached, under it on the run page, by attempt: an image inline that
// opens full size, a video to play, a log folded, a Playwright trace opened in Playwright's own
// trace viewer (served here: trace-viewer.ts), anything else to download. Every address is one
// of this server's files (paths.runFile), served so it can run no script (serve-file.ts).

/** A text file shown in the page when it is at most this long; longer, it is a link. */
export const INLINE_TEXT_BYTES = 64 * 1024;

/** What the page knows of a run's files: which arrived, and the text of the logs it shows. */
export interface RunFiles {
  received: ReadonlySet<string>;
  /** Logs' text by hash: read for the failed tests listed, within a budget per page. */
  texts: ReadonlyMap<string, string>;
}

const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
]);
const VIDEO_TYPES = new Set(['video/webm', 'video/mp4']);

/** The files of `result`, grouped by attempt; nothing when it has none. */
export function attachmentsBlock(runId: string, result: StoredResult, files: RunFiles): SafeHtml | '' {
  const attached = result.attachments ?? [];
  if (attached.length === 0) return '';
  const byAttempt = new Map<number | undefined, AttachmentRef[]>();
  for (const file of attached) {
    const list = byAttempt.get(file.attempt) ?? [];
    list.push(file);
    byAttempt.set(file.attempt, list);
  }
  const attempts = [...byAttempt].sort(([a], [b]) => (a ?? 0) - (b ?? 0));
  const titled = attempts.length > 1 || attempts.some(([attempt]) => attempt !== undefined && attempt > 1);
  return html`<div class="attachments">${attempts.map(
    ([attempt, list]) =>
      html`<div class="attempt">${titled ? html`<p class="attempt-title">${attempt === undefined ? 'Files' : `Attempt ${attempt}`}</p>` : ''}${inShowingOrder(list).map((file) => fileBlock(runId, file, files))}</div>`,
  )}</div>`;
}

/** What to look at first: pictures and videos, then a trace, then logs, then the rest; each kind in the order sent. */
function inShowingOrder(list: readonly AttachmentRef[]): AttachmentRef[] {
  const rank = (file: AttachmentRef) => {
    const type = baseType(file.contentType);
    if (IMAGE_TYPES.has(type) || VIDEO_TYPES.has(type)) return 0;
    if (isTrace(file)) return 1;
    return isTextType(type) ? 2 : 3;
  };
  return list
    .map((file, index) => ({ file, index }))
    .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
    .map(({ file }) => file);
}

/** Text the page can show as it is, escaped: plain text, logs, Markdown, CSV, JSON; never HTML or SVG. */
function isTextType(type: string): boolean {
  return (type.startsWith('text/') && type !== 'text/html') || type === 'application/json';
}

/** `text/plain; charset=utf-8` → `text/plain`. */
export function baseType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** A name a browser saves the file by: the name, with the extension its type usually has when it has none. */
export function downloadName(file: AttachmentRef): string {
  if (/\.[a-z0-9]{1,8}$/i.test(file.name)) return file.name;
  const extension = EXTENSIONS[baseType(file.contentType)];
  return extension ? `${file.name}.${extension}` : file.name;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'application/zip': 'zip',
  'text/plain': 'txt',
  'application/json': 'json',
  'text/html': 'html',
};

/** A Playwright trace: its `trace` attachment (a zip), or a zip named like one. */
function isTrace(file: AttachmentRef): boolean {
  return baseType(file.contentType) === 'application/zip' && /(^|[^a-z])trace/i.test(file.name);
}

function fileBlock(runId: string, file: AttachmentRef, files: RunFiles): SafeHtml {
  const type = baseType(file.contentType);
  const caption = html`<span class="file-name">${file.name}</span> <span class="muted">· ${formatBytes(file.size)}</span>`;
  if (!files.received.has(file.sha256)) {
    return html`<p class="file missing">${caption} <span class="muted">· not received: the reporter did not upload it (too large, or still in its spool: <code>testrun replay</code>)</span></p>`;
  }
  const url = runFilePath(runId, file.sha256, downloadName(file), file.contentType);
  if (IMAGE_TYPES.has(type)) {
    return html`<figure class="file image"><a href="${url}" target="_blank" rel="noopener" title="Full size"><img src="${url}" alt="${file.name}" loading="lazy"></a><figcaption>${caption} · <a href="${url}" target="_blank" rel="noopener">full size</a></figcaption></figure>`;
  }
  if (VIDEO_TYPES.has(type)) {
    return html`<figure class="file video"><video controls preload="metadata" src="${url}"></video><figcaption>${caption} · <a href="${url}">download</a></figcaption></figure>`;
  }
  if (isTrace(file)) {
    return html`<p class="file trace">${caption} · <a class="open-trace" href="${traceViewerPath(url)}" target="_blank" rel="noopener">open in Playwright's trace viewer</a> · <a href="${url}">download</a></p>`;
  }
  const text = files.texts.get(file.sha256);
  if (text !== undefined) {
    return html`<details class="file log"><summary>${caption}</summary><pre class="name">${text}</pre></details>`;
  }
  return html`<p class="file other">${caption} · <a href="${url}">download</a></p>`;
}

/** Whether the page shows this file's text itself (a log, short enough). */
export function isInlineText(file: AttachmentRef): boolean {
  return isTextType(baseType(file.contentType)) && file.size <= INLINE_TEXT_BYTES;
}
