/**
 * Every form in which a secret can come back to us inside text: as it is, JSON-escaped
 * (`\/` too, as PHP's json_encode writes it), URL-encoded, in any letter case (a service
 * that echoes headers may lower-case them). A secret of fewer than 4 characters is not
 * redacted: it would blank out ordinary words.
 */
export function secretPattern(secrets: readonly string[]): RegExp | undefined {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    const json = JSON.stringify(secret).slice(1, -1);
    for (const form of [secret, json, json.replaceAll('/', '\\/'), encodeURIComponent(secret)]) {
      forms.add(form);
    }
  }
  if (forms.size === 0) return undefined;
  // Longest first, so a form that contains another is replaced whole.
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(alternatives.join('|'), 'gi');
}

/** `text` with every form of every secret replaced by `***`. */
export function redact(text: string, pattern: RegExp | undefined): string {
  return pattern ? text.replace(pattern, '***') : text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
