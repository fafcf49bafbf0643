import { runPagePath } from '../paths.js';
import { absoluteTime, formatCount, formatDuration } from './format.js';
import type { Outcome } from './history.js';
import { html, type SafeHtml } from './html.js';
import { statusClass } from './layout.js';

// Small inline SVG pictures. Each carries its numbers in text too (a <title> per part,
// an aria-label), so a reader without the picture loses nothing.

/**
 * A stacked bar: one segment per status, as wide as its share of `total`. Widths are
 * percentages rather than a stretched viewBox, so the failed segments' hatching (layout.ts)
 * keeps its stripes square: a shape, not only a colour, tells them from passed.
 */
export function statusBar(counts: Record<string, number>, total: number): SafeHtml {
  const segments = Object.entries(counts).filter(([, count]) => count > 0);
  const label = segments.map(([status, count]) => `${formatCount(count)} ${status}`).join(', ');
  const whole = Math.max(total, 1);
  const percent = (count: number) => `${Number(((count / whole) * 100).toFixed(4))}%`;
  let x = 0;
  const rects = segments.map(([status, count]) => {
    const rect = html`<rect class="${statusClass(status)}" data-status="${status}" data-count="${count}" x="${percent(x)}" width="${percent(count)}" height="100%"><title>${formatCount(count)} ${status}</title></rect>`;
    x += count;
    return rect;
  });
  return html`<svg class="bar" role="img" aria-label="${label || 'no results'}">${rects}</svg>`;
}

const CELL = 14;
const GAP = 3;
const STRIP_HEIGHT = 22;
const SPARK_HEIGHT = 40;

/** What a strip cell carries besides its colour, so that no outcome is told by colour alone. */
const GLYPHS: Record<string, string> = { passed: '✓', failed: '✗', skipped: '○', todo: '◇' };

/**
 * One cell per run, oldest on the left, coloured by the test's outcome and marked with its
 * glyph; each links to its run. The picture is a group of links, not role="img": an image's
 * children are hidden from assistive technology, and these are links to follow.
 */
export function outcomeStrip(outcomes: readonly Outcome[]): SafeHtml {
  const width = outcomes.length * (CELL + GAP);
  const cells = outcomes.map(({ run, status, duration }, index) => {
    const x = index * (CELL + GAP);
    const label = `${status === undefined ? 'not in this run' : `${status}, ${formatDuration(duration)}`} · ${absoluteTime(run.createdAt)}`;
    const glyph = status === undefined ? '' : (GLYPHS[status] ?? '•');
    return html`<a href="${runPagePath(run.id)}" aria-label="${label}"><title>${label}</title><rect class="${statusClass(status)}" data-status="${status ?? 'absent'}" x="${x}" y="0.5" width="${CELL}" height="${STRIP_HEIGHT - 1}" rx="2"/>${glyph === '' ? '' : html`<text x="${x + CELL / 2}" y="${STRIP_HEIGHT / 2 + 4}" aria-hidden="true">${glyph}</text>`}</a>`;
  });
  return html`<svg class="strip" width="${width}" height="${STRIP_HEIGHT}" viewBox="0 0 ${width} ${STRIP_HEIGHT}" role="group" aria-label="outcome in each run, oldest first">${cells}</svg>`;
}

/** The test's duration in each run that held it, drawn under the strip's cells. */
export function sparkline(outcomes: readonly Outcome[]): SafeHtml {
  const points = outcomes
    .map((outcome, index) => ({ ...outcome, x: index * (CELL + GAP) + CELL / 2 }))
    .filter((point) => point.status !== undefined);
  if (points.length === 0) return html``;
  const durations = points.map((point) => point.duration);
  const [min, max] = [Math.min(...durations), Math.max(...durations)];
  const y = (duration: number) =>
    max === min ? SPARK_HEIGHT / 2 : SPARK_HEIGHT - 3 - ((duration - min) / (max - min)) * (SPARK_HEIGHT - 6);
  const width = outcomes.length * (CELL + GAP);
  const line = points.map((point) => `${point.x},${y(point.duration).toFixed(1)}`).join(' ');
  const dots = points.map(
    (point) =>
      html`<circle cx="${point.x}" cy="${y(point.duration).toFixed(1)}" r="2.5"><title>${formatDuration(point.duration)}</title></circle>`,
  );
  return html`<svg class="spark" width="${width}" height="${SPARK_HEIGHT}" viewBox="0 0 ${width} ${SPARK_HEIGHT}" role="img" aria-label="durations from ${formatDuration(min)} to ${formatDuration(max)}"><polyline points="${line}"/>${dots}</svg>`;
}
