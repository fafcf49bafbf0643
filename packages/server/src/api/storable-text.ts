import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

// What a write may hold beyond its schema (docs/design/server-storage.md#what-a-write-may-hold):
// text that both engines store and give back exactly as sent. JSON allows two things that
// cannot be: NUL ("\u0000"), which PostgreSQL's text cannot hold and SQLite's driver cut a
// name at, and an unpaired surrogate ("\ud800"), which is no Unicode character and has no
// UTF-8 form, so PostgreSQL refused it and a page could not show it. Refused on both
// engines alike, naming the field, before anything is stored: never a 500, never a value
// changed on the way. Every other character, control characters included, is stored.

/**
 * The first string in `body` (every string, at any depth: names, tags, failure details)
 * that holds NUL or an unpaired surrogate, as a 400 `invalid_request` naming its field by
 * its path in the body (`results/3/testCase`), as a schema error does; undefined when none.
 */
export function unstorableText(body: unknown): ApiError | undefined {
  const problem = findProblem(body, []);
  return problem === undefined ? undefined : new ApiError(400, 'invalid_request', problem);
}

/**
 * The same rule for what an address carries, on every route (the API and the pages): a run id,
 * a filter, a search. No stored text holds NUL or an unpaired surrogate, so none can match, but
 * PostgreSQL failed the query instead of finding nothing: a page answered 500, and a bare list
 * of runs was cut off after its headers had gone. Refused alike on both engines, naming the
 * parameter (`query/project`, `params/id`).
 */
export function registerTextInAddresses(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const refused = unstorableText({ query: request.query, params: request.params });
    if (refused) throw refused;
  });
}

function findProblem(value: unknown, path: string[]): string | undefined {
  if (typeof value === 'string') return textProblem(value, path);
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const problem = findProblem(child, [...path, key]);
    if (problem) return problem;
  }
  return undefined;
}

function textProblem(text: string, path: string[]): string | undefined {
  const field = path.length > 0 ? path.join('/') : 'body';
  const nul = text.indexOf('\u0000');
  if (nul !== -1) {
    return `${field} contains NUL (U+0000) at index ${nul}: text must not contain NUL, which no engine of this server stores`;
  }
  if (text.isWellFormed()) return undefined;
  const at = unpairedSurrogate(text);
  const unit = text.charCodeAt(at).toString(16).toUpperCase();
  return `${field} contains an unpaired surrogate (U+${unit}) at index ${at}: text must be well-formed Unicode (a surrogate only as half of a pair)`;
}

/** The index (in UTF-16 code units, as JSON's \u escapes count) of the first unpaired surrogate. */
function unpairedSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}
