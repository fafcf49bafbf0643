// How numbers and times read on the pages. Durations arrive in milliseconds (what the
// reporters send; the spec leaves the unit open) and are always written with a unit.

/**
 * `0.3 ms`, `56 ms`, `1.2 s`, `3 min 4 s`, `2 h 5 min`, `3 d 4 h`, `11,574 d 2 h` (10^12 ms,
 * the largest duration the API takes; a run's sum of many may be more); `–` for a value that
 * is not a duration.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 9.95) return `${ms.toFixed(1)} ms`;
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  const hours = Math.round(ms / 3_600_000);
  return `${formatCount(Math.floor(hours / 24))} d ${hours % 24} h`;
}

/** `1,234,567`. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** `2026-11-22T03:27:32.612Z` → `2026-11-22 03:27:32 UTC`: readable, and no line break inside it. */
export function absoluteTime(iso: string): string {
  return iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
}

/** `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 days ago`; empty for a time that does not parse. */
export function relativeTime(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 10) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** `12 KB`, `3.4 MB`, `512 B`: a file's size as the pages write it (binary multiples, as the reporters'). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${round(bytes / 1024 ** 3)} GB`;
  if (bytes >= 1024 ** 2) return `${round(bytes / 1024 ** 2)} MB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}
