/**
 * The SHA-256 of a text in UTF-8, in hex. node:crypto is loaded at the first call, not with
 * core: a plain run hashes nothing (random-uuid.ts says why that matters).
 */
export function sha256Hex(text: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text, 'utf8').digest('hex');
}
