import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { guardEndHook, guardHook, line, RunReporter } from '@testrun/core';
import type { Envelope } from './messages.js';
import { hintsFromArgv, splitOptions, type TestrunCucumberOptions } from './options.js';
import { CucumberScenarios, type RunEnd } from './scenarios.js';

/** What Cucumber hands a class-based formatter (IFormatterOptions), as far as this one reads it. */
export interface CucumberFormatterOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  eventBroadcaster: EventEmitter;
  /** The run's `formatOptions`, shared by every formatter; ours are under `testrun`. */
  parsedArgvOptions?: Record<string, unknown>;
  stream?: NodeJS.WritableStream;
  log?: (text: string) => void;
  [more: string]: unknown;
}

interface ConsoleFormatter {
  finished?: () => Promise<void> | void;
}

/**
 * Cucumber formatter: reads Cucumber's messages (the `envelope` events), hands core each
 * scenario's result as it finishes, and delivers the rest before Cucumber exits (Cucumber
 * awaits `finished`). Under `--parallel` formatters run in the coordinator, which relays
 * every worker's messages: one formatter, one run. Cucumber gives stdout to one formatter
 * only, so when that is this one, it keeps the console output by running Cucumber's
 * `progress` formatter (or the one the `formatter` option names) on the same stream.
 * Nothing here throws into Cucumber.
 */
export class TestrunFormatter {
  static readonly documentation = 'Sends each scenario’s result to the Test Run Reporting Service';
  /** Options given in code (createFormatter); formatOptions.testrun wins over them. */
  static defaults: TestrunCucumberOptions = {};

  private readonly run: RunReporter | undefined;
  private readonly mapping: CucumberScenarios | undefined;
  private readonly console: Promise<ConsoleFormatter | undefined>;
  private end: RunEnd | undefined;
  private readonly dryRun: boolean;
  /** A scenario was skipped whole: failFast skips every scenario after a failure (quarantine, below). */
  private skippedScenarios = 0;

  constructor(options: CucumberFormatterOptions) {
    const cwd = options.cwd ?? process.cwd();
    const split = guardHook(() => splitOptions(new.target.defaults, options.parsedArgvOptions));
    // The console output is the user's: it is kept whatever happens to reporting.
    this.console =
      options.stream === process.stdout ? relayed(split?.formatter, options) : Promise.resolve(undefined);
    const hints = guardHook(() => hintsFromArgv(process.argv.slice(2))) ?? {};
    this.dryRun = hints.dryRun === true;
    if (this.dryRun) return;
    this.run = guardHook(
      () =>
        new RunReporter({
          options: split?.testrun ?? {},
          framework: { name: 'cucumber', version: cucumberVersion(options) },
          rootDir: cwd,
          env: options.env,
          flushOnExit: () => guardHook(() => this.mapping?.flush()),
        }),
    );
    const run = this.run;
    if (!run?.active) return;
    // Scenarios are handed to core one by one: core names each by its file (result-name.ts).
    this.mapping = new CucumberScenarios(
      cwd,
      {
        file: (report) => {
          if (report.tests.some((test) => test.status === 'skipped')) this.skippedScenarios += 1;
          run.addFile(report);
        },
        runError: (message) => run.addRunErrors([message]),
      },
      hints,
    );
    const mapping = this.mapping;
    options.eventBroadcaster.on('envelope', (envelope: Envelope) => {
      guardHook(() => {
        const end = mapping.add(envelope);
        if (end) this.end = end;
      });
    });
  }

  /** Cucumber awaits this before it exits. */
  async finished(): Promise<void> {
    const wrapped = await this.console.catch(() => undefined);
    await guardEndHook(async () => {
      await wrapped?.finished?.();
    });
    if (this.dryRun || this.end?.dryRun) {
      line('dry run: no step ran, so nothing is reported.');
      return;
    }
    const run = this.run;
    if (!run?.active) return;
    await guardEndHook(async () => {
      if (!this.end) this.mapping?.flush();
      // A run is created at the first result (a dry run must create none); a run in which
      // no scenario ran (a --tags that selects none) is still a run, as under every adapter.
      run.startRun();
      // Cucumber's verdict ends the run too: a run it failed where no scenario says so is failed.
      // Cucumber fails a run for its failed scenarios (an undefined or pending step among them)
      // and its BeforeAll and AfterAll hooks, each a failed result here; but failFast, which a
      // formatter cannot see, skips every scenario after the first failure: a run with a
      // skipped scenario keeps Cucumber's verdict (quarantine, docs/design/quarantine.md).
      await run.endRun([], {
        failed: this.end?.success === false,
        ...(this.skippedScenarios > 0
          ? {
              failedByTestsAlone: false,
              notTestsAlone: 'a scenario was skipped, as failFast skips them after a failure',
            }
          : { failedByTestsAlone: true }),
      });
    });
    // Set only with failOnError; core has printed the reason. Cucumber sets its exit code
    // after its formatters finished: a run that passed is failed on the way out.
    if (run.error) {
      process.once('exit', () => {
        if (!process.exitCode) process.exitCode = 1;
      });
    }
  }
}

/**
 * The console formatter, fed every envelope from the first on. Loading it takes a while
 * (a plugin formatter is imported) and Cucumber does not wait for a class formatter's
 * constructor: envelopes that come before it is ready wait in a queue, then reach it in order.
 */
function relayed(
  name: string | undefined,
  options: CucumberFormatterOptions,
): Promise<ConsoleFormatter | undefined> {
  const relay = new EventEmitter();
  let queue: Envelope[] | undefined = [];
  const pass = (envelope: Envelope) =>
    guardHook(() => {
      relay.emit('envelope', envelope);
    });
  options.eventBroadcaster.on('envelope', (envelope: Envelope) => {
    if (queue) queue.push(envelope);
    else pass(envelope);
  });
  return consoleFormatter(name, { ...options, eventBroadcaster: relay }).then((formatter) => {
    const waiting = queue ?? [];
    queue = undefined;
    for (const envelope of waiting) pass(envelope);
    return formatter;
  });
}

/**
 * The formatter whose output the user sees, on the stream Cucumber gave this one: a
 * built-in (`progress`, `pretty`, `summary`…) or a module, loaded as Cucumber loads
 * formatters, from the Cucumber that is running. Should it fail to load, `progress`.
 */
async function consoleFormatter(
  name: string | undefined,
  options: CucumberFormatterOptions,
): Promise<ConsoleFormatter | undefined> {
  const cucumber = runningCucumber();
  if (!cucumber) {
    line('the console formatter cannot be loaded: @cucumber/cucumber is not found from this process.');
    return undefined;
  }
  try {
    return await buildFormatter(cucumber, name ?? 'progress', options);
  } catch (error) {
    line(
      `the formatter option names ${JSON.stringify(name)}, which Cucumber cannot load (${(error as Error).message}); the console output is Cucumber's progress formatter's instead.`,
    );
    try {
      return await buildFormatter(cucumber, 'progress', options);
    } catch {
      return undefined;
    }
  }
}

interface RunningCucumber {
  require: NodeJS.Require;
  builder: { build(type: unknown, options: unknown): Promise<ConsoleFormatter> };
}

async function buildFormatter(cucumber: RunningCucumber, name: string, options: CucumberFormatterOptions) {
  let implementation: unknown = name;
  try {
    const { resolveImplementation } = cucumber.require(
      '@cucumber/cucumber/lib/formatter/resolve_implementation',
    );
    implementation = await resolveImplementation(name, options.cwd ?? process.cwd());
  } catch (error) {
    // Cucumber 11 has no plugin formatters: its builder resolves names itself.
    if (!(error as { code?: string }).code?.startsWith('MODULE_NOT_FOUND')) throw error;
  }
  if (implementation && typeof implementation === 'object') return startPlugin(implementation, options);
  return cucumber.builder.build(implementation, { ...options, cleanup: async () => {} });
}

/** A plugin formatter (`pretty`, `html`…), started as Cucumber's plugin manager starts one. */
async function startPlugin(plugin: object, options: CucumberFormatterOptions): Promise<ConsoleFormatter> {
  const { formatter, optionsKey } = plugin as {
    formatter: (context: unknown) => unknown;
    optionsKey?: string;
  };
  const formatOptions = options.parsedArgvOptions ?? {};
  const stream = options.stream ?? process.stdout;
  const cleanup = await formatter({
    on: (_key: string, handler: (envelope: Envelope) => void) =>
      options.eventBroadcaster.on('envelope', handler),
    options: optionsKey ? (formatOptions[optionsKey] ?? {}) : formatOptions,
    logger: console,
    stream,
    write: (text: string | Uint8Array) => stream.write(text),
  });
  return { finished: typeof cleanup === 'function' ? () => cleanup() : undefined };
}

/** The Cucumber that runs this formatter: the one whose bin started the process, else the one this package finds. */
function runningCucumber(): RunningCucumber | undefined {
  for (const from of [process.argv[1], import.meta.filename]) {
    try {
      if (!from) continue;
      const require = createRequire(path.resolve(from));
      const cucumber = require('@cucumber/cucumber') as { FormatterBuilder?: RunningCucumber['builder'] };
      if (cucumber.FormatterBuilder) return { require, builder: cucumber.FormatterBuilder };
    } catch {
      // The next place.
    }
  }
  return undefined;
}

function cucumberVersion(options: CucumberFormatterOptions): string {
  const version = (options.supportCodeLibrary as { version?: unknown } | undefined)?.version;
  if (typeof version === 'string') return version;
  const running = runningCucumber()?.require('@cucumber/cucumber') as { version?: unknown } | undefined;
  return typeof running?.version === 'string' ? running.version : 'unknown';
}

/**
 * A formatter class with options given in code, for what formatOptions' JSON cannot carry
 * (`mapResult`): export it from a module of your own and name that module as the formatter
 * (`export default createFormatter({ mapResult })`, `--format ./testrun-formatter.mjs`).
 */
export function createFormatter(options: TestrunCucumberOptions): typeof TestrunFormatter {
  return class extends TestrunFormatter {
    static override defaults = options;
  };
}
