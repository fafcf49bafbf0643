import { isIPv6 } from 'node:net';

// A server beyond loopback shows its sign-in page to anyone who reaches it. Keys are long
// random strings, but a page that answers every guess at full speed still invites guessing:
// wrong keys from one address are counted, and past a few a minute that address waits.

/** Wrong keys one address may send within WINDOW_MS before it is told to wait. */
export const MAX_WRONG_KEYS = 10;
export const WINDOW_MS = 60_000;
/** Addresses counted at once; past it, the one whose last wrong key is oldest is forgotten. */
export const MAX_ADDRESSES = 10_000;

/**
 * Wrong keys by address. Behind a proxy a server may see a great many addresses (a botnet; an
 * IPv6 host owns a whole /64), so what is kept is bounded and each step costs O(1): addresses
 * are kept in the order of their last wrong key, so the ones whose window has passed, or the
 * oldest past MAX_ADDRESSES, are at the front. (It swept every address on every wrong key once
 * it knew 10,000: 20,000 wrong keys from 20,000 addresses held the event loop for 95 s.) An
 * IPv6 address counts by its /64, an IPv4-mapped one as the IPv4 address.
 */
export class SignInAttempts {
  /** Per address: when each wrong key of the current window came, oldest first; least recently wrong first. */
  readonly #wrong = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** How many addresses are counted now: never more than MAX_ADDRESSES. */
  get addresses(): number {
    return this.#wrong.size;
  }

  /** Milliseconds this address must wait before its next try; 0 when it may try now. */
  waitFor(address: string): number {
    const times = this.#recent(counted(address));
    if (times.length < MAX_WRONG_KEYS) return 0;
    return (times[times.length - MAX_WRONG_KEYS] as number) + WINDOW_MS - this.now();
  }

  recordWrongKey(address: string): void {
    const key = counted(address);
    // Only the last MAX_WRONG_KEYS matter, whatever an address sends.
    const times = [...this.#recent(key), this.now()].slice(-MAX_WRONG_KEYS);
    this.#wrong.delete(key);
    this.#wrong.set(key, times);
    this.#forgetOldest();
  }

  recordSignIn(address: string): void {
    this.#wrong.delete(counted(address));
  }

  #recent(key: string): number[] {
    const since = this.now() - WINDOW_MS;
    const times = (this.#wrong.get(key) ?? []).filter((time) => time > since);
    if (times.length === 0) this.#wrong.delete(key);
    return times;
  }

  #forgetOldest(): void {
    const since = this.now() - WINDOW_MS;
    for (const [key, times] of this.#wrong) {
      if (this.#wrong.size <= MAX_ADDRESSES && (times.at(-1) as number) > since) return;
      this.#wrong.delete(key);
    }
  }
}

/** What an address is counted as: an IPv6 address by its /64, an IPv4-mapped one as IPv4. */
export function counted(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  const bare = address.replace(/%.*$/, '');
  const [head = '', tail] = bare.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const all =
    tail === undefined ? groups(head) : [...groups(head), ...Array(missing).fill('0'), ...groups(tail)];
  return `${all
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
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
