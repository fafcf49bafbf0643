// Sizes as the size options take them and every line writes them.

/** `100 MB`, `512 KB`, `3 B`: a size as the options and lines write it. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${trimmed(bytes / 1024 ** 3)} GB`;
  if (bytes >= 1024 ** 2) return `${trimmed(bytes / 1024 ** 2)} MB`;
  if (bytes >= 1024) return `${trimmed(bytes / 1024)} KB`;
  return `${bytes} B`;
}

function trimmed(value: number): string {
  return String(Math.round(value * 10) / 10);
}
