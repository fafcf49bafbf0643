import { createHash, timingSafeEqual } from 'node:crypto';

/** Something that says whether a key is accepted: a KeyRing, or a Set in tests. */
export interface AcceptedKeys {
  has(candidate: string): boolean;
}

/**
 * A set of accepted keys, compared in constant time: a candidate is hashed and its digest
 * compared with every key's, without stopping at the first match, so the time taken tells
 * an attacker neither how much of a key was right nor which key matched. Hashing first
 * makes the lengths equal, as timingSafeEqual needs.
 */
export class KeyRing implements AcceptedKeys {
  readonly #digests: readonly Buffer[];
  readonly #keys: readonly string[];

  constructor(keys: Iterable<string>) {
    this.#keys = [...new Set(keys)];
    this.#digests = this.#keys.map(digestOf);
  }

  has(candidate: string): boolean {
    const digest = digestOf(candidate);
    let found = false;
    for (const accepted of this.#digests) found = timingSafeEqual(digest, accepted) || found;
    return found;
  }

  /** Every key, for code that derives something from each (a session's signature), never for output. */
  get keys(): readonly string[] {
    return this.#keys;
  }
}

function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
