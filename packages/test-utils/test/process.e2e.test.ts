import { expect, it } from 'vitest';
import { runProcess } from '../src/process.js';

it('rejects a run still going at its timeout with its output, none of it read as a stack frame', async () => {
  const script =
    "console.log('    at load (/x/broken-map.js:1:1)'); console.error('stuck'); setInterval(() => {}, 1000);";
  const error = await runProcess(process.execPath, ['-e', script], { timeoutMs: 1_000 }).catch(
    (e: Error) => e,
  );
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).toMatch(/ timed out after 1000 ms in /);
  expect(message).toContain('│     at load (/x/broken-map.js:1:1)');
  expect(message).toContain('│ stuck');
  expect(message).not.toMatch(/^\s*at /m);
});
