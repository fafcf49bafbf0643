import fs from 'node:fs';

// node:crypto is loaded only where a run needs more than a random id (a hash, a certificate):
// loading it costs a run 7–9 ms of CPU on the bench machine, and Mocha's and node:test's
// processes load it for nobody else (docs/performance.md#what-a-run-loads-and-what-is-left).
// The ids are drawn from the kernel's random device (what OpenSSL seeds node:crypto from), never
// from Math.random: a test may replace it (a seeded generator, a stub returning 0.5) in the
// process a reporter shares with it, and equal idempotency keys would merge runs or batches.

// Taken when core loads, as the clock is (clock.ts): a test sharing the process that stubs
// fs.readSync and never restores it must not hand every id the same bytes.
const { openSync, readSync, closeSync } = fs;

/** Random bytes read at once, as node:crypto's randomUUID keeps them: 32 ids per read. */
const POOL_BYTES = 16 * 32;

/**
 * A maker of random (version 4) UUIDs, as `crypto.randomUUID()` makes them, from the bytes of
 * `device`; from node:crypto's once the device cannot be read (Windows has none) or gives
 * bytes all alike.
 */
export function randomUUIDs(device = '/dev/urandom'): () => string {
  let pool: Buffer | undefined;
  let offset = POOL_BYTES;
  let deviceMissing = false;
  const next16 = (): Buffer | undefined => {
    if (deviceMissing) return undefined;
    if (pool === undefined || offset === POOL_BYTES) {
      pool = readDevice(device, POOL_BYTES);
      offset = 0;
      // Bytes all alike are no random device's (a file in its place, a mocked fs).
      if (pool === undefined || pool.every((byte) => byte === pool![0])) {
        deviceMissing = true;
        return undefined;
      }
    }
    offset += 16;
    return Buffer.from(pool.subarray(offset - 16, offset));
  };
  return () => {
    const bytes = next16();
    if (bytes === undefined) return process.getBuiltinModule('node:crypto').randomUUID();
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** A random (version 4) UUID: every idempotency key and spool name core makes. */
export const randomUUID: () => string = randomUUIDs();

/** `count` bytes of `device`, or undefined when it cannot be read in full (no such device, a mocked fs). */
export function readDevice(device: string, count: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(device, 'r');
    const bytes = Buffer.alloc(count);
    let filled = 0;
    while (filled < count) {
      const read = readSync(fd, bytes, filled, count - filled, null);
      if (read === 0) return undefined;
      filled += read;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing to do: the bytes, if any, were read.
  }
}
