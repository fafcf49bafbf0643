import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SafeHtml } from './html.js';

/** Markup handed to the socket at once, at most: large enough to send efficiently. */
export const CHUNK_CHARS = 64 * 1024;

/**
 * How long the renderer may hold the event loop before it gives other requests a turn. A
 * write waits for at most about this long behind a page, however large the page.
 */
export const SLICE_MS = 5;

/**
 * A page as a stream of its parts, rendered as the client reads it. After SLICE_MS of
 * rendering (or CHUNK_CHARS of markup) the renderer hands what it has to the socket and
 * gives the event loop a turn (setImmediate: after pending I/O), so a write arriving while a
 * 100,000-result page renders is answered at the next turn rather than after the whole page;
 * a client that reads slowly pauses the rendering (the stream's backpressure) instead of
 * having the whole page buffered in memory; and a client that goes away ends it.
 */
export function streamPage(parts: Iterable<SafeHtml | string>): Readable {
  return Readable.from(slices(parts), { objectMode: false });
}

async function* slices(parts: Iterable<SafeHtml | string>): AsyncGenerator<string> {
  let pending = '';
  let sliceStart = performance.now();
  for (const part of parts) {
    pending += typeof part === 'string' ? part : part.markup;
    if (pending.length >= CHUNK_CHARS || performance.now() - sliceStart >= SLICE_MS) {
      if (pending !== '') yield pending;
      pending = '';
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  if (pending !== '') yield pending;
}
