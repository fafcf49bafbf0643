// Text from a test run (names, messages, a project's name) written into GitHub-flavoured
// Markdown so that it shows as the text it is and breaks nothing around it: no table cell
// split by a `|`, no code span, emphasis, link, image, autolink or HTML made of it, no row
// ended by a line break in it (docs/design/ci-summary.md#hostile-text).

/**
 * Line breaks, other control characters and the characters that reorder text on screen
 * (bidirectional overrides): a line break would end the table row, the rest mislead a reader.
 */
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/**
 * Every ASCII punctuation character, each of which CommonMark lets a backslash make literal.
 * All of them, not a chosen few: `:` and `.` too, so that `https://…` and `www.…` are not
 * autolinked, `@` so that an address is not, `&` so that no entity is read.
 */
const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** `text` as Markdown inline text on one line: at most `max` code points, then `…`. */
export function markdownText(text: string, max: number): string {
  const oneLine = String(text).replace(UNSHOWN, ' ').trim();
  return cut(oneLine, max).replace(PUNCTUATION, '\\$&');
}

/** At most `max` code points (a pair of surrogates is one), with `…` when cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * A URL as a Markdown link's destination, or undefined when it is not an http(s) URL (a
 * `javascript:` page link from a service is no link). Every character a destination or a
 * table cell could read otherwise is percent-encoded.
 */
export function markdownUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.href.replace(
    /[^A-Za-z0-9\-._~:/?#@!$&+,;=%]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
