import type { IdempotentResponse } from './records.js';

/** What an Idempotency-Key is scoped to: the same key on another method or path is another key. */
export interface IdempotencyScope {
  key: string;
  method: string;
  path: string;
}

export class IdempotencyRegistry {
  readonly #saved = new Map<string, IdempotentResponse>();
  readonly #inFlight = new Set<string>();

  apply(record: IdempotentResponse): void {
    this.#saved.set(scopeId(record), record);
  }

  saved(scope: IdempotencyScope): IdempotentResponse | undefined {
    return this.#saved.get(scopeId(scope));
  }

  isInFlight(scope: IdempotencyScope): boolean {
    return this.#inFlight.has(scopeId(scope));
  }

  begin(scope: IdempotencyScope): void {
    this.#inFlight.add(scopeId(scope));
  }

  end(scope: IdempotencyScope): void {
    this.#inFlight.delete(scopeId(scope));
  }
}

function scopeId({ key, method, path }: IdempotencyScope): string {
  return JSON.stringify([method, path, key]);
}
