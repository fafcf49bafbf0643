import { Logger } from './output/logger.js';

// What every adapter does around the framework's hooks, in one place.

/**
 * The lines adapters write outside a run's own summary: with every form of the API key
 * redacted, the environment's from the start and an option's once a reporter read it.
 */
const adapterLogger = new Logger();
adapterLogger.redact(process.env.TESTRUN_API_KEY?.trim());

/** Lines already written by `lineOnce` in this process. */
const written = new Set<string>();

/** From now on, `secret` is redacted from what adapters write too. */
export function redactInAdapterLines(secret: string | undefined): void {
  adapterLogger.redact(secret);
}

/** One `testrun: …` line on stderr, redacted and inert. */
export function line(message: string): void {
  adapterLogger.line(message);
}

/**
 * A line written at most once per process: watch mode builds a framework's reporters anew
 * for every rerun in the same process, and the notice that it is not reported, or why
 * reporting is off, is worth saying once, not once per rerun.
 */
export function lineOnce(message: string, write: (message: string) => void = line): void {
  if (written.has(message)) return;
  written.add(message);
  write(message);
}

/**
 * Runs one framework hook's work. A reporter that throws turns a green build red, so a bug
 * in testrun is one line, never an error in the framework; the hook then returns undefined.
 */
export function guardHook<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    line(`internal error, results may be incomplete: ${(error as Error).message}`);
    return undefined;
  }
}

/** guardHook for a hook the framework awaits: the end of the run. */
export async function guardEndHook(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    line(`internal error at the end of the run: ${(error as Error).message}`);
  }
}
