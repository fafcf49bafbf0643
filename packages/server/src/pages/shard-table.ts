import type { ShardTime } from '../plans/shard-times.js';
import { absoluteTime, formatCount, formatDuration } from './format.js';
import { html, type SafeHtml } from './html.js';

/**
 * A sharded run's shards: each one's results, the test time its plan gave it and the time its tests
 * took (docs/design/shard-plans.md#which-shard-results-came-from). Shards that end together have
 * actual times close to each other; the planned column says how close the plan meant them to be.
 */
export function shardTable(shards: readonly ShardTime[]): SafeHtml {
  if (shards.length === 0) return html``;
  const plans = [...new Set(shards.map((shard) => shard.planKey).filter((key) => key !== undefined))];
  const actual = shards.map((shard) => shard.actualMs);
  const spread =
    shards.length > 1 && Math.max(...actual) > 0
      ? html` The longest shard's tests took ${formatDuration(Math.max(...actual))}, the shortest's ${formatDuration(Math.min(...actual))}.`
      : '';
  return html`<h2 id="shards">Shards (${formatCount(shards.length)})</h2>
<div class="table-wrap"><table id="shard-times"><thead><tr><th>Shard</th><th class="num">Results</th><th class="num">Planned</th><th class="num">Actual</th><th>Last results</th></tr></thead><tbody>
${shards.map(
  (shard) =>
    html`<tr><td>${shard.index}/${shard.count}</td><td class="num">${formatCount(shard.results)}</td><td class="num">${shard.plannedMs === undefined ? '–' : formatDuration(shard.plannedMs)}</td><td class="num">${formatDuration(shard.actualMs)}</td><td>${absoluteTime(shard.lastReceivedAt)}</td></tr>\n`,
)}</tbody></table></div>
<p class="muted">Planned: the test time ${plans.length === 0 ? 'a plan from earlier runs' : html`plan <code>${plans.join(', ')}</code>`} gave each shard; actual: the sum of the durations of the tests each shard sent (neither counts how many ran at once).${spread}</p>
`;
}
