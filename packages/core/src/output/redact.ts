/**
 * A pattern that finds a secret in text however it came back to us: as it is, or with any of
 * its characters escaped the way a JSON encoder (`\u002B`, `\u002b`, `\/`, as ASP.NET's
 * System.Text.Json and PHP's json_encode write them), a URL (`%2B`, `+` for a space) or HTML
 * (`&#43;`, `&#x2B;`, `&amp;`) escapes it, in any letter case (a service that echoes headers
 * may lower-case them). The pattern is built per character, so a mix of escaped and plain
 * characters matches too. A secret of fewer than 4 characters is not redacted: it would
 * blank out ordinary words.
 */
export function secretPattern(secrets: readonly string[]): SecretPattern | undefined {
  const kept = [...new Set(secrets)]
    .filter((secret) => secret.length >= 4)
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  if (kept.length === 0) return undefined;
  let every: RegExp | undefined;
  return {
    // Built when first needed: most runs never print or log a text with an escape marker in
    // it, and building it took 1–2 ms of every run (docs/performance.md).
    get every() {
      every ??= new RegExp(kept.map((secret) => Array.from(secret, anyEscapeOf).join('')).join('|'), 'gi');
      return every;
    },
    plain: kept.every((secret) => /^[\x20-\x7e]*$/.test(secret))
      ? kept.map((secret) => secret.toLowerCase())
      : undefined,
  };
}

export interface SecretPattern {
  /** Every form of every secret. */
  readonly every: RegExp;
  /** The secrets lower-cased, when all are printable ASCII: the quick test below. */
  readonly plain: readonly string[] | undefined;
}

/** What starts every escaped form of a character above. */
const ESCAPE_MARKER = /[\\%&+]/;

/** `text` with every form of every secret replaced by `***`. */
export function redact(text: string, pattern: SecretPattern | undefined): string {
  if (!pattern) return text;
  // The full pattern (every character in eight forms, any case) is slow to run: 11 ms of a
  // run's CPU went to it (docs/performance.md). Text without an escape marker can only hold a
  // secret as it is, in some letter case, which a plain search finds.
  if (pattern.plain && !ESCAPE_MARKER.test(text)) {
    const lower = text.toLowerCase();
    if (!pattern.plain.some((secret) => lower.includes(secret))) return text;
  }
  return text.replace(pattern.every, '***');
}

/** One character as a pattern that matches it plain or escaped in any of the ways above. */
function anyEscapeOf(character: string): string {
  const code = character.codePointAt(0)!;
  const hex = code.toString(16);
  const forms = [
    escapeRegExp(character),
    `\\\\u0*${hex}`, // JSON, JavaScript: \u002B
    `\\\\u\\{0*${hex}\\}`, // JavaScript: \u{2B}
    `\\\\x0*${hex}`, // JavaScript, Python, C: \x2B
    `&#0*${code};`, // HTML: &#43;
    `&#x0*${hex};`, // HTML: &#x2B;
    ...utf8Bytes(character), // URL: %2B, %C3%A9
  ];
  const json = JSON_SHORT_ESCAPES[character];
  if (json) forms.push(escapeRegExp(json));
  const entity = HTML_ENTITIES[character];
  if (entity) forms.push(entity);
  if (character === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/** The character's UTF-8 bytes percent-encoded, as one pattern: `%C3%A9`. */
function utf8Bytes(character: string): string[] {
  const bytes = [...Buffer.from(character, 'utf8')];
  return [bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')];
}

const JSON_SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
