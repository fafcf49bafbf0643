// The reporter Mocha's workers use in --parallel mode (the main process's reporter names it
// with runner.workerReporter()): Mocha's own worker reporter, which buffers every event of
// the file for the main process, plus one event after each failed hook naming the tests the
// hook kept from running. The main process cannot find them itself: the suites it gets from
// a worker hold no tests. A CommonJS module, as Mocha require()s its worker reporter.
import fs = require('node:fs');
import path = require('node:path');
import prevented = require('./prevented-tests.js');

// Mocha's worker script runs in this process (lib/nodejs/worker.js, worker.cjs from Mocha 12):
// its reporter and serializer are beside it, whichever Mocha that is.
const lib = path.dirname(require.main?.filename ?? require.resolve('mocha/lib/nodejs/worker.js'));
const ParallelBuffered = require(besideWorker('reporters', 'parallel-buffered'));
// An ES module from Mocha 12 on: require() gives its named exports as well.
const { SerializableEvent } = require(besideWorker('serializer'));

/** Mocha 12 renamed its CommonJS files .cjs; its ES modules and older Mochas' files are .js. */
function besideWorker(...parts: string[]): string {
  const file = path.join(lib, ...parts);
  return fs.existsSync(`${file}.cjs`) ? `${file}.cjs` : `${file}.js`;
}

interface Runnable {
  type?: string;
  file?: string;
  id?: string;
  titlePath(): unknown[];
  isPending(): boolean;
}

class TestrunWorkerReporter extends ParallelBuffered {
  constructor(runner: { on(event: string, listener: (runnable: Runnable) => void): void }, options: unknown) {
    super(runner, options);
    const willRun = prevented.grepOf(runner);
    runner.on('fail', (runnable: Runnable) => {
      if (runnable?.type !== 'hook') return;
      try {
        // `$$` names come back as methods in the main process (Mocha's serializer).
        const tests = prevented.preventedBy(runnable as never, willRun).map((test) => {
          const t = test as unknown as Runnable;
          return {
            $$titlePath: t.titlePath(),
            $$isPending: t.isPending(),
            file: t.file,
            __mocha_id__: t.id,
          };
        });
        (this as unknown as { events: unknown[] }).events.push(
          SerializableEvent.create(prevented.PREVENTED_EVENT, { tests }),
        );
      } catch {
        // The main process then fails the hook's file as a whole.
      }
    });
  }
}

export = TestrunWorkerReporter;
