// What a transport does with an answer, the same over either transport: read a bounded
// prefix of its body, and its headers in one shape.

/** How much of an answer is read: enough for any id or error message, never a 400 MB error page. */
export const MAX_SUCCESS_BODY_BYTES = 1024 * 1024;
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Reads `body` up to `limit` bytes and stops reading there, dropping the rest of the answer. */
export async function readBounded(body: AsyncIterable<Buffer | string>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes.subarray(0, limit - size));
    size += bytes.length;
    // Leaving the loop destroys the stream, and with it the rest of a huge answer.
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function bodyLimit(status: number): number {
  return status >= 200 && status < 300 ? MAX_SUCCESS_BODY_BYTES : MAX_ERROR_BODY_BYTES;
}

export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
