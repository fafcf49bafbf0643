/** Markup that is already safe; everything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/**
 * Tagged template for pages: interpolated values are HTML-escaped unless they are
 * SafeHtml, arrays are rendered item by item, and undefined, null and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const needsEscaping = /[&<>"']/;

export function escapeHtml(text: string): string {
  // Most of what a page interpolates (names, ids, numbers, paths) has nothing to escape: a
  // test first is cheaper than a replace that calls back (a tenth of the flaky page's time).
  if (!needsEscaping.test(text)) return text;
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}
