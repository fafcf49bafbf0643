import path from 'node:path';
import type { FileReport, RawFailure } from '@testrun/core';
import { EnvelopeMapping, type RunEnd, type RunHints } from './map-envelopes.js';
import type { Envelope } from './messages.js';

// Cucumber's messages as results, for any process that runs Cucumber: this package's formatter,
// and WebdriverIO's Cucumber framework, whose workers run Cucumber too (@testrun/webdriverio's
// Cucumber formatter). One mapping for both, so both name, locate and judge a scenario alike
// (docs/naming.md#cucumber; docs/design/webdriverio.md#cucumber-the-worker-reads-cucumbers-own-messages).

export type { Envelope, RunEnd, RunHints };

/** Where the scenarios go, as core takes them: a feature file's report, or an error outside every scenario. */
export interface ScenarioSink {
  file(report: FileReport): void;
  runError(message: string): void;
}

/**
 * Reads Cucumber's messages one envelope at a time (`add`) and hands `sink` one report per
 * scenario (an outline: per example) as it finishes, its feature file and failure lines made
 * absolute from `cwd`, Cucumber's working directory; `flush` hands on what waits, for a process
 * on its way out.
 */
export class CucumberScenarios {
  private readonly mapping: EnvelopeMapping;

  constructor(cwd: string, sink: ScenarioSink, hints: RunHints = {}) {
    this.mapping = new EnvelopeMapping(
      {
        scenario: (uri, test) =>
          sink.file({
            file: path.resolve(cwd, uri),
            tests: [{ ...test, failure: inFolder(test.failure, cwd) }],
          }),
        fileFailed: (uri, failure) =>
          sink.file({
            file: path.resolve(cwd, uri),
            tests: [],
            failedOutsideTests: true,
            failure: inFolder(failure, cwd),
          }),
        runError: (message) => sink.runError(message),
      },
      hints,
    );
  }

  /** One envelope; at the run's end (`testRunFinished`), how it ended. */
  add(envelope: Envelope): RunEnd | undefined {
    return this.mapping.add(envelope);
  }

  flush(): void {
    this.mapping.flush();
  }
}

/**
 * A failure's feature file lines with the file as an absolute path, as the scenario's file is
 * handed to core: core names both alike (relative to the run's base folder, a monorepo's root).
 */
function inFolder(failure: RawFailure | undefined, cwd: string): RawFailure | undefined {
  if (!failure) return failure;
  const absolute = (at: RawFailure['location']) =>
    typeof at?.file === 'string' ? { ...at, file: path.resolve(cwd, at.file) } : at;
  return { ...failure, location: absolute(failure.location), declaredAt: absolute(failure.declaredAt) };
}
