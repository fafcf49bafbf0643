import { html, type SafeHtml } from './html.js';

export function renderTags(tags: readonly string[]): SafeHtml {
  return html`${tags.map((tag) => html`<span class="tag">${tag}</span>`)}`;
}
