// The CI summary (docs/design/ci-summary.md#loaded-only-when-used): a bundle of its own
// (dist/summary/index.js), loaded by run-end/summary-hand-off.ts only when a summary or a part of
// one is written, so a run without one loads none of it.

export { cut, markdownText, markdownUrl } from './markdown-text.js';
export { readParts, type SummaryPart, writePart } from './parts.js';
export { type Get, type ReadAnswer, readRun, type ServiceRun } from './read-run.js';
export { renderSummary, type SummaryInput, type SummaryState } from './render.js';
export { emptyTally, type ListedTest, RunTally, type StatusWords, type TallyData } from './tally.js';
export { testAnchor } from './test-anchor.js';
export { appendSummary } from './write.js';
