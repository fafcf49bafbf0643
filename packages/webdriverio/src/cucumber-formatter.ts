import type { EventEmitter } from 'node:events';
import os from 'node:os';
import { type FileReport, guardHook } from '@testrun/core';
import { CucumberScenarios, type Envelope } from '@testrun/cucumber/scenarios';

// WebdriverIO's Cucumber framework runs Cucumber in each worker, and its events name a scenario by
// its name alone: no Rule, no outline example, no step line. The worker service (service.ts) adds
// this formatter to `cucumberOpts.format`, so it reads Cucumber's own messages in the worker and
// hands the worker's reporter each scenario as @testrun/cucumber maps it: the same names, statuses
// and locations under `wdio` as under `cucumber-js`
// (docs/design/webdriverio.md#cucumber-the-worker-reads-cucumbers-own-messages).

/** Where the formatter finds the worker's reporter: one per process, whichever copy of this package loaded it. */
const RECEIVER = Symbol.for('@testrun/webdriverio cucumber scenarios');

/** What the worker's reporter takes from the formatter. */
export interface CucumberReceiver {
  /** The formatter is in place: from now on scenarios come from Cucumber's messages; `flush` hands on what waits. */
  started(flush: () => void): void;
  file(report: FileReport): void;
  runError(message: string): void;
}

/** The worker's reporter makes itself the receiver; a formatter constructed after it hands it Cucumber's scenarios. */
export function receiveCucumberScenarios(receiver: CucumberReceiver): void {
  (globalThis as Record<symbol, unknown>)[RECEIVER] = receiver;
}

function receiver(): CucumberReceiver | undefined {
  return (globalThis as Record<symbol, CucumberReceiver | undefined>)[RECEIVER];
}

/** What Cucumber hands a class-based formatter, as far as this one reads it. */
interface FormatterOptions {
  cwd?: string;
  eventBroadcaster: EventEmitter;
}

/** A Cucumber formatter that writes nothing: it hands each finished scenario to the worker's reporter. */
export class TestrunWdioCucumberFormatter {
  static readonly documentation = "Hands each scenario to @testrun/webdriverio's reporter";

  constructor(options: FormatterOptions) {
    const to = receiver();
    if (!to) return;
    guardHook(() => {
      const scenarios = new CucumberScenarios(options.cwd ?? process.cwd(), to);
      to.started(() => guardHook(() => scenarios.flush()));
      options.eventBroadcaster.on('envelope', (envelope: Envelope) => {
        guardHook(() => scenarios.add(envelope));
      });
    });
  }

  /**
   * Cucumber awaits this of every formatter at the end: Cucumber 10 calls it without asking
   * whether it is there (its Formatter base class has one), and a worker whose formatter lacked
   * it ended in an error. Nothing to finish: the reporter delivers at `runner:end`.
   */
  async finished(): Promise<void> {}
}

export default TestrunWdioCucumberFormatter;

/** This module as Cucumber loads a formatter: by its file URL, in the format's `[path]` form. */
export const CUCUMBER_FORMATTER = new URL('./cucumber-formatter.js', import.meta.url).href;

/**
 * Adds the formatter to a worker's configuration under WebdriverIO's Cucumber framework, before
 * the framework reads `cucumberOpts` (a worker service's `beforeSession`). Cucumber gives
 * standard output to one formatter only, the last that asks, which is WebdriverIO's own: this
 * one, which writes nothing, is given the null device instead. Once: a configuration that names
 * it already keeps it as it is.
 */
export function addCucumberFormatter(config: unknown): void {
  const wdio = config as { framework?: unknown; cucumberOpts?: { format?: unknown } } | undefined;
  if (wdio?.framework !== 'cucumber') return;
  wdio.cucumberOpts ??= {};
  const format = Array.isArray(wdio.cucumberOpts.format) ? wdio.cucumberOpts.format : [];
  const named = (entry: unknown) => (Array.isArray(entry) ? entry[0] : entry) === CUCUMBER_FORMATTER;
  if (!format.some(named)) wdio.cucumberOpts.format = [...format, [CUCUMBER_FORMATTER, os.devNull]];
}
