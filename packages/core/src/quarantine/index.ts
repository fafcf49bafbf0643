// Quarantine (docs/design/quarantine.md): a bundle of its own (dist/quarantine/index.js), loaded by
// run-end/quarantine-hand-off.ts only when a test failed in a run whose service announced
// quarantine, and by `testrun run` only when its command's reporters had failures. It imports
// only types from the rest of core: nothing is bundled twice.

export {
  type CommandEvidence,
  type CommandQuarantine,
  commandQuarantine,
  mergeOutcomes,
} from './command-verdict.js';
export { failedLine, nameOf, quarantinedPart, type ReporterVerdictHow, reporterLine } from './lines.js';
export { type QuarantineList, readQuarantineList } from './list.js';
export {
  everyFailureQuarantined,
  LISTED,
  type NamedTest,
  type NotQuarantined,
  type QuarantineOutcome,
} from './outcome.js';
export { testKey } from './test-key.js';
export { readVerdictParts, VERDICT_PART_SUFFIX, type VerdictPart } from './verdict-part.js';
export { QuarantineWatch, type QuarantineWatchInit } from './watch.js';
