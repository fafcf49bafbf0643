import { createHash } from 'node:crypto';

/**
 * The idempotency keys of the two halves of a batch split after a 413. New keys, because
 * each half is a new body; derived from the parent's key, so a replay interrupted after
 * one half was stored splits the same way and the service recognises that half.
 */
export function halfKeys(parentKey: string): [string, string] {
  return [derive(parentKey, 0), derive(parentKey, 1)];
}

function derive(parentKey: string, half: number): string {
  const hex = createHash('sha256').update(`${parentKey}/${half}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
