/** `2026-11-22T03:27:32.612Z` → `2026-11-22 03:27:32 UTC`: readable, and no line break inside it. */
export function readableTime(iso: string): string {
  return iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
}
