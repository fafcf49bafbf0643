// A Vitest setup file that scripts/test-time.mjs adds (`--spawns`, vitest.config.ts reads
// TESTRUN_SPAWN_LOG): every process a test spawns, a JSON line in that file with the test file,
// the program (node's script, not node), and how long it ran. What a file costs is mostly the
// framework processes it starts, so this is what "fewer spawns per behaviour" is counted by.
import childProcess from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { expect } from 'vitest';

const log = process.env.TESTRUN_SPAWN_LOG;
const WRAPPED = Symbol.for('testrun.spawn-log');
if (log && !childProcess.spawn[WRAPPED]) {
  const spawn = childProcess.spawn;
  const logged = function (command, args, ...rest) {
    const child = spawn.call(this, command, args, ...rest);
    const started = performance.now();
    const list = Array.isArray(args) ? args : [];
    const script =
      path.basename(command) === 'node' || command === process.execPath
        ? list.find((a) => !a.startsWith('-'))
        : command;
    const program = path.basename(String(script ?? command));
    const file = path.relative(process.cwd(), expect.getState().testPath ?? '(no test)');
    child.once('exit', () => {
      const line = {
        file,
        program,
        arg: list.find((a, i) => i > 0 && !a.startsWith('-')) ?? '',
        ms: Math.round(performance.now() - started),
        cwd: path.relative(
          process.cwd(),
          String(rest.find((o) => o && typeof o === 'object' && !Array.isArray(o))?.cwd ?? '.'),
        ),
      };
      fs.appendFileSync(log, `${JSON.stringify(line)}\n`);
    });
    return child;
  };
  logged[WRAPPED] = true;
  childProcess.spawn = logged;
  syncBuiltinESMExports();
}
