// The run's quarantine list as the service answers `GET {base}/api/v1/runs/{runId}/quarantine`
// (the `quarantine` extension, docs/design/quarantine.md):
//
//   { "project": "web", "tests": [{ "key": "<64 hex>", "expiresAt": "…" }],
//     "expired": [{ "key": "<64 hex>", "expiredAt": "…" }],
//     "elsewhere": [{ "key": "<64 hex>", "project": "api" }] }
//
// `tests` are quarantined now; `expired` were, until their expiry, and nobody lifted them;
// `elsewhere` are quarantined in other projects: listed so that a failure of one says why it
// fails the build. Anything else in the answer is ignored; an answer without `tests` is no
// list, and nothing is quarantined.

/** What a process matches its failed results with. */
export interface QuarantineList {
  /** The project the service says the list is of (the run's). */
  project: string | undefined;
  /** Quarantined now: key → when it expires. */
  active: ReadonlyMap<string, string>;
  /** Expired and not lifted: key → when it expired. */
  expired: ReadonlyMap<string, string>;
  /** Quarantined in another project only: key → that project. */
  elsewhere: ReadonlyMap<string, string>;
}

/** Entries read at most: a service answering more does not make the process hold them all. */
const MAX_ENTRIES = 10_000;
const KEY = /^[0-9a-f]{64}$/;

export function readQuarantineList(body: string): QuarantineList | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: 'the service answered the quarantine list with something that is not JSON' };
  }
  const answer = parsed as {
    project?: unknown;
    tests?: unknown;
    expired?: unknown;
    elsewhere?: unknown;
  } | null;
  if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.tests)) {
    return { problem: 'the service answered a quarantine list without "tests"' };
  }
  return {
    project: typeof answer.project === 'string' ? answer.project : undefined,
    active: entries(answer.tests, 'expiresAt'),
    expired: entries(Array.isArray(answer.expired) ? answer.expired : [], 'expiredAt'),
    elsewhere: entries(Array.isArray(answer.elsewhere) ? answer.elsewhere : [], 'project'),
  };
}

function entries(list: readonly unknown[], when: 'expiresAt' | 'expiredAt' | 'project'): Map<string, string> {
  const read = new Map<string, string>();
  for (const entry of list.slice(0, MAX_ENTRIES)) {
    const { key, [when]: at } = (entry ?? {}) as Record<string, unknown>;
    if (typeof key === 'string' && KEY.test(key)) read.set(key, typeof at === 'string' ? at : '');
  }
  return read;
}
