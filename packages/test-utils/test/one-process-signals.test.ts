import { describe, expect, it } from 'vitest';
import { procStat } from '../src/proc-stat.js';

// The guard is loaded by vitest.config.ts's setupFiles, as for every test.
describe('signals in a test process', () => {
  it('refuses pid 0, -1 and this process’s own group, which would end vitest with the test', () => {
    const group = Number(procStat('self')?.[2]);
    expect(() => process.kill(Number(''), 'SIGTERM')).toThrow(
      /process\.kill\(0\): that signals this test's own process group/,
    );
    expect(() => process.kill(-1, 'SIGTERM')).toThrow(/process\.kill\(-1\)/);
    expect(() => process.kill(-group, 'SIGTERM')).toThrow(/own process group/);
    expect(() => process.kill(Number.NaN, 'SIGTERM')).toThrow(/process\.kill\(NaN\)/);
  });

  it('signals one process, or another group, as before', () => {
    expect(process.kill(process.pid, 0)).toBe(true);
    expect(() => process.kill(2 ** 22 + 1, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(() => process.kill(-(2 ** 22 + 1), 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
