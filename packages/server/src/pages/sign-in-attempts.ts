// A server beyond loopback shows its sign-in page to anyone who reaches it. Keys are long
// random strings, but a page that answers every guess at full speed still invites guessing:
// wrong keys from one address are counted, and past a few a minute that address waits.

/** Wrong keys one address may send within WINDOW_MS before it is told to wait. */
export const MAX_WRONG_KEYS = 10;
export const WINDOW_MS = 60_000;

export class SignInAttempts {
  /** Per address: when each wrong key of the current window came, oldest first. */
  readonly #wrong = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds this address must wait before its next try; 0 when it may try now. */
  waitFor(address: string): number {
    const times = this.#recent(address);
    if (times.length < MAX_WRONG_KEYS) return 0;
    return (times[0] as number) + WINDOW_MS - this.now();
  }

  recordWrongKey(address: string): void {
    const times = this.#recent(address);
    times.push(this.now());
    this.#wrong.set(address, times);
    // Bounded memory under a flood of addresses: forget windows that have passed.
    if (this.#wrong.size > 10_000) for (const key of [...this.#wrong.keys()]) this.#recent(key);
  }

  recordSignIn(address: string): void {
    this.#wrong.delete(address);
  }

  #recent(address: string): number[] {
    const since = this.now() - WINDOW_MS;
    const times = (this.#wrong.get(address) ?? []).filter((time) => time > since);
    if (times.length === 0) this.#wrong.delete(address);
    else this.#wrong.set(address, times);
    return times;
  }
}

/**
 * Whether a form post came from another site: a browser names the page's origin in
 * `Origin` (or at least `Sec-Fetch-Site`); a post without either is a script, not a page
 * another site made the browser send.
 */
export function isCrossSitePost(headers: {
  origin?: string | undefined;
  host?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
}): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true;
  const origin = headers.origin;
  if (origin === undefined || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== headers.host;
  } catch {
    return true;
  }
}
