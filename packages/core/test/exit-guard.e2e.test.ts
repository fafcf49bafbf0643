import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { nodeWithoutCoreDumps, runProcess } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The guard in a process of its own: what a signal does there is the whole point. The child
// prints every callback as a JSON line, synchronously: it may be the last thing it does.
const guard = new URL('../dist/exit-guard.js', import.meta.url).href;
const fromTestUtils = createRequire(new URL('../../test-utils/package.json', import.meta.url));
const signalExit4 = JSON.stringify(fromTestUtils.resolve('signal-exit'));
const signalExit3 = JSON.stringify(fromTestUtils.resolve('signal-exit-3'));

/**
 * Every signal signal-exit v3 or v4 listens to here, from their own lists (modules without
 * side effects): the guard must end the process on each exactly as it would end without it.
 */
const SIGNAL_EXIT_SIGNALS = [
  ...new Set<string>([
    ...(fromTestUtils('signal-exit/signals') as { signals: string[] }).signals,
    ...(fromTestUtils('signal-exit-3/signals.js') as string[]),
  ]),
].filter((name): name is NodeJS.Signals => name in os.constants.signals);

/** What a process a signal killed reports: the first name of its number (SIGIOT is SIGABRT). */
const killedBy = (signal: NodeJS.Signals) =>
  Object.entries(os.constants.signals).find(([, number]) => number === os.constants.signals[signal])![0];

/** A process that installs the guard between `before` and `after`, runs `andThen`, says it is ready and waits, unless told not to. */
function guarded({ before = '', after = '', andThen = '', wait = true }) {
  const source = `
import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const say = (value) => fs.writeSync(1, JSON.stringify(value) + '\\n');
${before}
const { onProcessExit, keepExitGuard, receivedSignal } = await import(${JSON.stringify(guard)});
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
  const outcome = runProcess(nodeWithoutCoreDumps(), ['--input-type=module', '-e', source], {
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
  // The neighbours signal-exit's protocol may have, in either order with core: a copy of
  // signal-exit that hears a signal the guard does not listen to counts one listener fewer
  // than participants and leaves the process running (issue 42: SIGQUIT, SIGALRM, SIGUSR2).
  const v3 = (name: string) => `require(${signalExit3})(() => say('${name}'));`;
  const v4 = (name: string) => `require(${signalExit4}).onExit(() => say('${name}'));`;
  const copy = `(await import(${JSON.stringify(`${guard}?copy`)})).onProcessExit(() => say('copy'));`;
  const NEIGHBOURS: [string, { before?: string; after?: string }][] = [
    ['nothing else', {}],
    ['signal-exit v3 loaded before', { before: v3('v3') }],
    ['signal-exit v3 loaded after', { after: v3('v3') }],
    ['signal-exit v4 loaded before', { before: v4('v4') }],
    ['signal-exit v4 loaded after', { after: v4('v4') }],
    ['a second copy of core', { after: copy }],
    // All at once, on every signal below.
    ['v3 before, v4 after and a second copy', { before: v3('v3'), after: `${v4('v4')} ${copy}` }],
  ];
  // Every neighbour on one signal (a process ends once), taken in turn from the list; every
  // signal beside all of them at once.
  const CASES: [string, NodeJS.Signals, { before?: string; after?: string }][] = [
    ...NEIGHBOURS.slice(0, -1).map(
      ([name, parts], i) =>
        [name, SIGNAL_EXIT_SIGNALS[(i + 3) % SIGNAL_EXIT_SIGNALS.length]!, parts] as (typeof CASES)[number],
    ),
    ...SIGNAL_EXIT_SIGNALS.map(
      (signal) => [NEIGHBOURS.at(-1)![0], signal, NEIGHBOURS.at(-1)![1]] as (typeof CASES)[number],
    ),
  ];

  it("reads signal-exit's lists", () => {
    expect(SIGNAL_EXIT_SIGNALS).toEqual(expect.arrayContaining(['SIGQUIT', 'SIGALRM', 'SIGUSR2', 'SIGTERM']));
  });

  it.concurrent.each(CASES)(
    'beside %s, %s ends the process by that signal, each participant told once',
    async (_case, sent, parts) => {
      const guardedProcess = guarded(parts);
      await guardedProcess.signal(sent);
      const { code, signal, stdout } = await guardedProcess.outcome;
      expect({ code, signal }).toEqual({ code: null, signal: killedBy(sent) });
      const said = lines(stdout);
      const told = said.filter((line) => typeof line === 'object');
      // An alias (SIGIOT, SIGPOLL) is heard as whichever of its names Node emits first.
      expect(told).toEqual([{ guard: { signal: expect.any(String) } }]);
      expect(killedBy((told[0] as { guard: { signal: NodeJS.Signals } }).guard.signal)).toBe(killedBy(sent));
      for (const other of ['v4', 'v3', 'copy']) {
        if (JSON.stringify(parts).includes(`say('${other}')`))
          expect(said.filter((line) => line === other)).toEqual([other]);
      }
    },
  );

  it('leaves a signal to a handler that takes it, and calls back with the code the handler exits with', async () => {
    const guardedProcess = guarded({
      before: `process.once('SIGTERM', () => setTimeout(() => process.exit(75), 50));`,
    });
    await guardedProcess.signal('SIGTERM');
    const { code, signal, stdout } = await guardedProcess.outcome;
    expect({ code, signal }).toEqual({ code: 75, signal: null });
    expect(lines(stdout)).toEqual([{ guard: { code: 75 } }]);
  });

  it('leaves SIGUSR2 to a handler that takes it and carries on (a heap dump), and does not take it for a cancel', async () => {
    const guardedProcess = guarded({
      after: `process.on('SIGUSR2', () => setTimeout(() => { say({ received: receivedSignal() ?? null }); process.exit(0); }, 50));`,
    });
    await guardedProcess.signal('SIGUSR2');
    const { code, stdout } = await guardedProcess.outcome;
    expect(code).toBe(0);
    expect(lines(stdout)).toEqual([{ received: null }, { guard: { code: 0 } }]);
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

  it('finishes telling every reporter when a second signal comes meanwhile, then ends by the first', async () => {
    // The second SIGTERM arrives while a reporter spools (here: sent by the reporter itself,
    // so it is certain to come then); it used to find no listener and kill the process mid-write.
    const guardedProcess = guarded({
      after: `onProcessExit(() => { process.kill(process.pid, 'SIGTERM'); say('spooled after the second signal'); });`,
    });
    await guardedProcess.signal('SIGTERM');
    const { code, signal, stdout } = await guardedProcess.outcome;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    expect(lines(stdout)).toEqual([{ guard: { signal: 'SIGTERM' } }, 'spooled after the second signal']);
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
