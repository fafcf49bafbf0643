import {
  guardEndHook,
  guardHook,
  OPTION_SPECS,
  optionFromText,
  RunReporter,
  startDir,
  type TestrunOptions,
} from '@testrun/core';
import { NewmanMapping } from './map-events.js';
import type { NewmanEmitter, NewmanRunOptions } from './newman-types.js';
import { KEPT_EVENTS, messageOf, recordOf, textOf } from './record-events.js';
import { newmanVerdict } from './verdict.js';

/** testrun's options (docs/options.md); every one can also come from the environment (`TESTRUN_*`). */
export type TestrunNewmanOptions = TestrunOptions;

/** The name `-r` and `reporter: {…}` know this reporter by: Newman loads `@testrun/newman-reporter-testrun` for it. */
export const REPORTER_NAME = '@testrun/testrun';

/**
 * A Newman reporter: `newman run collection.json -r cli,@testrun/testrun`, or
 * `newman.run({ reporters: ['cli', '@testrun/testrun'] })`. One run per `newman run`; each
 * request's result goes to the service as the request (its scripts included) ends, and the
 * rest when the run is done. Newman sets its exit code with `process.exitCode`, so the process
 * stays up until delivery ends (within flushTimeout). Nothing here throws into Newman.
 */
export class TestrunNewmanReporter {
  private readonly run: RunReporter | undefined;
  private readonly mapping: NewmanMapping | undefined;

  constructor(emitter: NewmanEmitter, reporterOptions?: unknown, runOptions?: NewmanRunOptions) {
    this.run = guardHook(
      () =>
        new RunReporter({
          options: optionsOf(reporterOptions),
          framework: { name: 'newman', version: versionOf(runOptions) },
          rootDir: startDir,
        }),
    );
    if (!this.run?.active) return;
    this.mapping = new NewmanMapping(collectionName(runOptions));
    emitter.on('start', () => guardHook(() => this.run!.startRun()));
    for (const event of KEPT_EVENTS) {
      emitter.on(event, (err, args) =>
        guardHook(() => {
          const kept = recordOf(event, err, args);
          const result = kept && this.mapping!.take(kept);
          if (result) this.run!.addResults([result]);
        }),
      );
    }
    emitter.on('done', (err, summary) => {
      const run = this.run!;
      guardHook(() => {
        if (err) run.addRunErrors([messageOf(err)]);
        run.addResults(this.mapping!.unfinished());
      });
      // Newman's command line sets process.exitCode and lets the process end by itself, so the
      // delivery below keeps it up until it ends; with failOnError, a run whose results could
      // not be delivered fails. Newman's own verdict ends the run too (verdict.ts).
      const verdict = guardHook(() => newmanVerdict(err, summary)) ?? {};
      void guardEndHook(async () => {
        // Newman fails a run for its failed assertions and requests, each a failed result
        // here, and for an error that ended it or a failure elsewhere (a failed `(run)` result,
        // verdict.ts); but --bail stops it at the first, leaving requests unsent (quarantine,
        // docs/design/quarantine.md).
        await run.endRun(
          [],
          runOptions?.bail
            ? {
                ...verdict,
                failedByTestsAlone: false,
                notTestsAlone: '--bail stops Newman at a failure, before every request ran',
              }
            : { ...verdict, failedByTestsAlone: true },
        );
        if (run.error) process.exitCode = 1;
      });
    });
  }
}

/** testrun's options among the reporter's: `--reporter-@testrun/testrun-<option> <value>` arrives as text. */
function optionsOf(given: unknown): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (!given || typeof given !== 'object') return options;
  for (const [name, value] of Object.entries(given)) {
    // Newman adds every reporter's generic options (`--reporter-export`): only testrun's are ours.
    if (!Object.hasOwn(OPTION_SPECS, name)) continue;
    options[name] =
      typeof value === 'string' ? optionFromText(name as keyof typeof OPTION_SPECS, value) : value;
  }
  return options;
}

function collectionName(runOptions: NewmanRunOptions | undefined): string {
  return textOf(runOptions?.collection?.name)?.trim() || '(unnamed)';
}

function versionOf(runOptions: NewmanRunOptions | undefined): string {
  return textOf(runOptions?.newmanVersion) ?? 'unknown';
}
