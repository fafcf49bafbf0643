// What a status may be as sent; the statusMap and mapResult options are held to it.
/**
 * A status as sent: a non-empty string every service can store (well formed, no NUL), else
 * undefined. The spec types it as a string; the local server refuses any other text.
 */
export function toStatus(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.isWellFormed() && !value.includes('\u0000')
    ? value
    : undefined;
}
