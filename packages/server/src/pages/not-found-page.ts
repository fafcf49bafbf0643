import { flakyPagePath, runsPagePath } from '../paths.js';
import { html } from './html.js';
import { layout } from './layout.js';

/** The page a browser gets for a path that is no page (the API's unknown paths answer JSON). */
export function renderNotFoundPage(path: string): string {
  return layout(
    'Not found',
    html`<h1>Not found</h1>
<p>There is no page at <code>${path}</code>.</p>
<p>The pages are <a href="${runsPagePath()}">the runs</a>, each run's page, each test's history and <a href="${flakyPagePath()}">the flaky tests</a>.</p>`,
  );
}
