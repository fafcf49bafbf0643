import type { NewmanEvent } from './map-events.js';
import type { NewmanCursor, NewmanProperty, NewmanRequest } from './newman-types.js';

// Newman's events as the plain records the mapping reads (map-events.ts): what an event's
// live collection objects say, taken when it fires. Recorded runs (test/fixtures/recorded/)
// are these records, so the mapping's tests replay what the reporter keeps.

/** The events the reporter keeps, besides `start` and `done`. */
export const KEPT_EVENTS = ['beforeItem', 'request', 'assertion', 'script', 'item'] as const;
export type KeptEvent = (typeof KEPT_EVENTS)[number];

/** The record of one of Newman's events (its listener's `err` and `args`); none for a script that did not throw. */
export function recordOf(event: KeptEvent, err: unknown, args: unknown): NewmanEvent | undefined {
  const {
    item,
    cursor,
    request,
    response,
    assertion,
    skipped,
    event: script,
  } = (args ?? {}) as Record<string, unknown>;
  const ref = String((cursor as NewmanCursor | undefined)?.ref ?? '');
  switch (event) {
    case 'beforeItem':
      return {
        name: 'beforeItem',
        ref,
        titles: titlesOf(item as NewmanProperty),
        iteration: numberOr((cursor as NewmanCursor)?.iteration, 0),
        iterations: numberOr((cursor as NewmanCursor)?.cycles, 1),
      };
    case 'request':
      return {
        name: 'request',
        ref,
        error: err ? messageOf(err) : undefined,
        request: requestLine(request as NewmanRequest),
        responseTime: numberOr((response as { responseTime?: unknown })?.responseTime, undefined),
      };
    case 'assertion':
      return {
        name: 'assertion',
        ref,
        assertion: String(assertion ?? ''),
        skipped: skipped === true,
        error: err
          ? { name: textOf((err as Error).name), message: textOf((err as Error).message) }
          : undefined,
      };
    case 'script':
      // Newman tells a script that threw three ways (`exception`, `script`, `test`'s executions): this one names it.
      if (!err) return undefined;
      return {
        name: 'script',
        ref,
        script: textOf((script as { listen?: unknown })?.listen) ?? 'a',
        error: {
          name: textOf((err as Error).name),
          message: textOf((err as Error).message),
          stack: textOf((err as Error).stack),
        },
      };
    case 'item':
      return { name: 'item', ref };
  }
}

/** The request's folders, outermost first, then its name: every ancestor that has a parent is a folder (the collection has none). */
function titlesOf(item: NewmanProperty | undefined): string[] {
  const titles = [textOf(item?.name) ?? ''];
  let parent = item?.parent?.();
  for (let depth = 0; parent?.parent?.() && depth < 1000; depth++) {
    titles.unshift(textOf(parent.name) ?? '');
    parent = parent.parent?.();
  }
  return titles;
}

/** `GET http://host/path`: no query string and no credentials, which may hold secrets. */
function requestLine(request: NewmanRequest | undefined): string | undefined {
  if (!request) return undefined;
  const written = typeof request.url === 'string' ? request.url : request.url?.toString?.();
  let url = written;
  try {
    const parsed = new URL(written ?? '');
    url = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    url = written?.replace(/[?#].*$/, '');
  }
  return [textOf(request.method), url].filter(Boolean).join(' ') || undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function numberOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
