import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { runProcess } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The guard in a process of its own: what a signal does there is the whole point. The child
// prints every callback as a JSON line, synchronously: it may be the last thing it does.
const guard = new URL('../dist/exit-guard.js', import.meta.url).href;
const fromTestUtils = createRequire(new URL('../../test-utils/package.json', import.meta.url));
const signalExit4 = JSON.stringify(fromTestUtils.resolve('signal-exit'));
const signalExit3 = JSON.stringify(fromTestUtils.resolve('signal-exit-3'));

/** A process that installs the guard between `before` and `after`, runs `andThen`, says it is ready and waits, unless told not to. */
function guarded({ before = '', after = '', andThen = '', wait = true }) {
  const source = `
import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const say = (value) => fs.writeSync(1, JSON.stringify(value) + '\\n');
${before}
const { onProcessExit, keepExitGuard } = await import(${JSON.stringify(guard)});
const stop = onProcessExit((end) => say({ guard: end }));
${after}
${andThen}
say('ready');
${wait ? 'setTimeout(() => {}, 10_000);' : ''}
`;
  let child: ChildProcess | undefined;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const outcome = runProcess(process.execPath, ['--input-type=module', '-e', source], {
    onSpawn: (spawned) => {
      child = spawned;
      spawned.stdout?.on('data', (chunk) => String(chunk).includes('"ready"') && ready());
    },
  });
  return {
    outcome,
    signal: async (signal: NodeJS.Signals) => {
      await started;
      child!.kill(signal);
    },
  };
}

function lines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '' && line !== '"ready"')
    .map((line) => JSON.parse(line));
}

describe('onProcessExit, when a signal comes', () => {
  it.each([
    ['alone', {}],
    ['beside a signal-exit v4 listener', { before: `require(${signalExit4}).onExit(() => say('v4'));` }],
    [
      'beside a signal-exit v3 listener loaded after it',
      { after: `require(${signalExit3})(() => say('v3'));` },
    ],
    [
      'beside a second copy of itself',
      { after: `(await import(${JSON.stringify(`${guard}?copy`)})).onProcessExit(() => say('copy'));` },
    ],
  ])('%s: calls back once, then the signal ends the process', async (_case, parts) => {
    const guardedProcess = guarded(parts);
    await guardedProcess.signal('SIGTERM');
    const { code, signal, stdout } = await guardedProcess.outcome;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    const said = lines(stdout);
    expect(said.filter((line) => JSON.stringify(line).includes('guard'))).toEqual([
      { guard: { signal: 'SIGTERM' } },
    ]);
    // Every other listener of the signal-exit protocol heard of it too.
    for (const other of ['v4', 'v3', 'copy']) {
      if (JSON.stringify(parts).includes(`say('${other}')`)) expect(said).toContain(other);
    }
  });

  it('leaves a signal to a handler that takes it, and calls back with the code the handler exits with', async () => {
    const guardedProcess = guarded({
      before: `process.once('SIGTERM', () => setTimeout(() => process.exit(75), 50));`,
    });
    await guardedProcess.signal('SIGTERM');
    const { code, signal, stdout } = await guardedProcess.outcome;
    expect({ code, signal }).toEqual({ code: 75, signal: null });
    expect(lines(stdout)).toEqual([{ guard: { code: 75 } }]);
  });

  it("tells a handler's exit with 128 + a signal's number as that signal, as Vitest exits on SIGINT", async () => {
    const guardedProcess = guarded({ before: `process.once('SIGINT', () => process.exit(130));` });
    await guardedProcess.signal('SIGINT');
    const { code, stdout } = await guardedProcess.outcome;
    expect(code).toBe(130);
    expect(lines(stdout)).toEqual([{ guard: { signal: 'SIGINT' } }]);
  });

  it.each([
    ['every listener of the process', 'process.removeAllListeners();'],
    ["the signal's listeners only", "process.removeAllListeners('SIGTERM');"],
  ])('is back after a test removed %s, once keepExitGuard has run', async (_case, removal) => {
    const guardedProcess = guarded({ andThen: `${removal} keepExitGuard(); keepExitGuard();` });
    await guardedProcess.signal('SIGTERM');
    const { code, signal, stdout } = await guardedProcess.outcome;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    expect(lines(stdout)).toEqual([{ guard: { signal: 'SIGTERM' } }]);
  });

  it('lets a signal nobody handles end the process once the guard is stopped', async () => {
    const guardedProcess = guarded({ andThen: 'stop();' });
    await guardedProcess.signal('SIGHUP');
    const { signal, stdout } = await guardedProcess.outcome;
    expect(signal).toBe('SIGHUP');
    expect(lines(stdout)).toEqual([]);
  });
});

describe('onProcessExit, when the process exits', () => {
  it('calls back with the code of process.exit()', async () => {
    const { code, stdout } = await guarded({ andThen: 'process.exit(3);' }).outcome;
    expect(code).toBe(3);
    expect(lines(stdout)).toEqual([{ guard: { code: 3 } }]);
  });

  it('calls back when the event loop empties, with the exit code set', async () => {
    const { code, stdout } = await guarded({ andThen: 'process.exitCode = 4;', wait: false }).outcome;
    expect(code).toBe(4);
    expect(lines(stdout)).toEqual([{ guard: { code: 4 } }]);
  });
});
