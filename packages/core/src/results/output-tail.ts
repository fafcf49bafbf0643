import type { RawAttachment } from '../types.js';

// What a test printed, as a file attached to it: the last 64 KB of its standard output or
// error, which is where a failure's story usually ends (docs/attachments.md). Kept bounded
// while the test runs, so a test that prints a gigabyte costs 64 KB.

export const OUTPUT_TAIL_BYTES = 64 * 1024;

/** The last `limit` bytes of a stream of output, kept as it comes. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes printed in all, the cut ones included. */
  private total = 0;

  constructor(private readonly limit = OUTPUT_TAIL_BYTES) {}

  /** Whether anything was printed. */
  get printed(): boolean {
    return this.total > 0;
  }

  push(chunk: string | Uint8Array): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    if (bytes.length === 0) return;
    this.chunks.push(bytes);
    this.kept += bytes.length;
    this.total += bytes.length;
    // Whole chunks that fall before the last `limit` bytes are dropped as they come.
    while (this.chunks.length > 1 && this.kept - this.chunks[0]!.length >= this.limit) {
      this.kept -= this.chunks.shift()!.length;
    }
  }

  /** The tail as an attachment named `name` (`stdout`, `stderr`); undefined when nothing was printed. */
  attachment(name: string, attempt?: number): RawAttachment | undefined {
    if (this.total === 0) return undefined;
    let bytes = Buffer.concat(this.chunks);
    let cut = this.total - bytes.length;
    if (bytes.length > this.limit) {
      cut += bytes.length - this.limit;
      bytes = bytes.subarray(bytes.length - this.limit);
    }
    if (cut > 0) {
      // Not from the middle of a character: its continuation bytes go with the cut.
      let start = 0;
      while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start += 1;
      bytes = Buffer.concat([
        Buffer.from(
          `[… ${cut + start} bytes before this were cut: the last ${this.limit / 1024} KB are kept]\n`,
        ),
        bytes.subarray(start),
      ]);
    }
    return { name, contentType: 'text/plain; charset=utf-8', body: bytes, ...(attempt ? { attempt } : {}) };
  }
}

/**
 * The tails of a test's standard output and error, as attachments (those it printed anything
 * to). Their bytes are made only if core sends them (`body` is a function): a passing test's
 * output, which the `attachments` option leaves out by default, costs nothing.
 */
export function outputAttachments(
  output: { stdout?: readonly (string | Uint8Array)[]; stderr?: readonly (string | Uint8Array)[] },
  attempt?: number,
): RawAttachment[] {
  const attached: RawAttachment[] = [];
  for (const name of ['stdout', 'stderr'] as const) {
    const chunks = output[name] ?? [];
    if (!chunks.some((chunk) => chunk.length > 0)) continue;
    attached.push({
      name,
      contentType: 'text/plain; charset=utf-8',
      body: () => {
        const tail = new OutputTail();
        for (const chunk of chunks) tail.push(chunk);
        return tail.attachment(name)?.body;
      },
      ...(attempt ? { attempt } : {}),
    });
  }
  return attached;
}
