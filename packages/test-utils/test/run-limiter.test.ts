import { expect, it } from 'vitest';
import { runLimiter } from '../src/run-limiter.js';

it('runs at most `limit` works at once, the others in the order they came, and passes on results and errors', async () => {
  const limited = runLimiter(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const work = (n: number) => async () => {
    started.push(n);
    running += 1;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 10));
    running -= 1;
    if (n === 3) throw new Error('three');
    return n;
  };
  const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => limited(work(n))));

  expect(most).toBe(2);
  expect(started).toEqual([1, 2, 3, 4, 5]);
  expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
    1,
    2,
    'three',
    4,
    5,
  ]);
});
