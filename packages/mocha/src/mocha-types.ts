// The parts of Mocha's objects the reporter reads, as Mocha 10, 11 and 12 have them. In serial
// mode they are Mocha's own objects; in parallel mode the main process gets copies a worker
// serialized, where methods come back as functions returning a value (`titlePath()`) and a
// suite has no tests (lib/nodejs/serializer.js).

/** A test or a hook. */
export interface MochaRunnable {
  type?: string;
  title?: string;
  file?: string;
  duration?: number;
  state?: string;
  /** Mocha's id in serial mode. */
  id?: string;
  /** Mocha's id on a copy from a worker. */
  __mocha_id__?: string;
  parent?: MochaSuite;
  ctx?: { currentTest?: MochaRunnable };
  titlePath?: () => unknown[];
  isPending?: () => boolean;
  /** The retry this attempt is (0 for the first); a copy from a worker has it as a method too. */
  currentRetry?: () => number;
}

export interface MochaSuite {
  title?: string;
  root?: boolean;
  file?: string;
  parent?: MochaSuite;
  tests?: MochaRunnable[];
  suites?: MochaSuite[];
}

export interface MochaRunner {
  on(event: string, listener: (...args: never[]) => void): unknown;
  isParallelMode?: () => boolean;
  workerReporter?: (path: string) => unknown;
}

/** A Mocha reporter class, as `--reporter` names one. */
export type MochaReporterClass = new (
  runner: MochaRunner,
  options: unknown,
) => { done?: (failures: number, fn: (failures: number) => void) => void };

/** Mocha's own names for its runner events (Runner.constants), the same in Mocha 10, 11 and 12. */
export const EVENTS = {
  suiteBegin: 'suite',
  suiteEnd: 'suite end',
  testBegin: 'test',
  pass: 'pass',
  fail: 'fail',
  pending: 'pending',
} as const;
