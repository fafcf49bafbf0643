import { describe, expect, it } from 'vitest';

// The guard is loaded by vitest.config.ts's setupFiles, as for every test.
describe('signals in a test process', () => {
  it('refuses pid 0 and negative pids, which would signal vitest’s own process group', () => {
    expect(() => process.kill(Number(''), 'SIGTERM')).toThrow(/never a process group \(pid 0 or below\)/);
    expect(() => process.kill(-process.pid, 'SIGTERM')).toThrow(/never a process group/);
    expect(() => process.kill(Number.NaN, 'SIGTERM')).toThrow(/process\.kill\(NaN\)/);
  });

  it('signals one process as before', () => {
    expect(process.kill(process.pid, 0)).toBe(true);
    expect(() => process.kill(2 ** 22 + 1, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
