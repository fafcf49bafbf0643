import { afterEach, describe, expect, it, vi } from 'vitest';
import { Deadline } from '../../src/delivery/deadline.js';

afterEach(() => vi.restoreAllMocks());

describe('Deadline', () => {
  it('keeps its budget when the wall clock steps forward during the flush', () => {
    const deadline = new Deadline();
    deadline.start(30_000);
    // An NTP step of an hour, as a CI machine's clock may take mid-job.
    const stepped = Date.now() + 3_600_000;
    vi.spyOn(Date, 'now').mockReturnValue(stepped);
    expect(deadline.remaining()).toBeGreaterThan(29_000);
    expect(deadline.passed).toBe(false);
    deadline.dispose();
  });

  it('lets a sleep that fits the budget run, and ends at once one that would not', async () => {
    const deadline = new Deadline();
    deadline.start(10_000);
    expect(await deadline.sleep(0)).toBe(true);
    expect(await deadline.sleep(60_000)).toBe(false);
    deadline.dispose();
  });

  it('wakes a sleeper as soon as the deadline is set before it would wake', async () => {
    const deadline = new Deadline();
    const sleeping = deadline.sleep(60_000);
    deadline.start(50);
    expect(await sleeping).toBe(false);
    deadline.dispose();
  });

  it('aborts its signal and wakes every sleeper when it expires', async () => {
    const deadline = new Deadline();
    const sleeping = deadline.sleep(60_000);
    deadline.expire();
    expect(deadline.signal.aborted).toBe(true);
    expect(await sleeping).toBe(false);
    await deadline.expired();
  });

  it('has no budget before it starts', () => {
    expect(new Deadline().remaining()).toBe(Number.POSITIVE_INFINITY);
  });
});
