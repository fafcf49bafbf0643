import type { FailureDetails, StoredResult } from '../ledger/store.js';
import { formatCount } from './format.js';
import { html, type SafeHtml } from './html.js';

// Why a test failed (the `failure-details` extension), as the run and test pages show it.
// Everything a reporter sent is text to escape: `html` escapes every interpolated value.

/** How many distinct messages the run page's "Failures by message" table lists; the rest are counted. */
export const MESSAGE_GROUPS = 20;

/** A stack folded under its summary: it is long, and the message says the most. */
export function failureDetailsBlock(details: FailureDetails | undefined): SafeHtml | '' {
  if (!details) return '';
  const { message, stack, location, attempts } = details;
  const where = [
    location === undefined ? '' : html`at <code>${location}</code>`,
    attempts === undefined || attempts < 2 ? '' : `after ${attempts} attempts`,
  ].filter((part) => part !== '');
  return html`<div class="failure">${message === undefined ? '' : html`<pre class="name failure-message">${message}</pre>`}${
    where.length === 0 ? '' : html`<p class="muted failure-where">${joined(where)}</p>`
  }${stack === undefined ? '' : html`<details class="failure-stack"><summary>Stack</summary><pre class="name">${stack}</pre></details>`}</div>`;
}

/** The first line of a failure's message: what tells one failure from another. */
export function messageKey(result: StoredResult): string {
  const message = result.details?.message?.trim();
  if (!message) return '(no message)';
  return message.split('\n', 1)[0]!.trim();
}

/**
 * The run's failures grouped by their message's first line, most frequent first: twenty
 * tests failing with one message are one problem. Undefined when no failure has a message
 * (a service that sent only the four fields): the table would say nothing.
 */
export function failuresByMessage(failed: readonly StoredResult[]): SafeHtml | '' {
  if (!failed.some((result) => result.details?.message)) return '';
  const groups = new Map<string, number>();
  for (const result of failed) {
    const key = messageKey(result);
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const sorted = [...groups].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = sorted.slice(0, MESSAGE_GROUPS);
  const rest = sorted.length - shown.length;
  return html`<h2 id="failures-by-message">Failures by message (${formatCount(sorted.length)})</h2>
<div class="table-wrap"><table id="failure-messages"><thead><tr><th>Message</th><th>Tests</th></tr></thead><tbody>
${shown.map(
  ([message, count]) =>
    html`<tr class="failure-group"><td><code class="name">${message}</code></td><td class="failure-count">${formatCount(count)}</td></tr>
`,
)}</tbody></table></div>${rest > 0 ? html`<p class="muted">And ${formatCount(rest)} more messages.</p>` : ''}
`;
}

function joined(parts: readonly (SafeHtml | string)[]): SafeHtml {
  return html`${parts.map((part, index) => (index === 0 ? part : html` · ${part}`))}`;
}
