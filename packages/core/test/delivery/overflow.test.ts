import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeBatch } from '../../src/delivery/deliver-batch.js';
import { Overflow } from '../../src/delivery/overflow.js';

const batch = (n: number) =>
  makeBatch([{ testSuite: 's', testCase: `case ${n} 🚀\ttab`, status: 'passed', duration: n }], `key-${n}`);

describe('Overflow', () => {
  it('gives batches back first in, first out, exactly as they went in', () => {
    const overflow = new Overflow();
    for (let n = 0; n < 5; n += 1) overflow.push(batch(n));
    expect(overflow.size).toBe(5);
    const out = [];
    for (let next = overflow.shift(); next; next = overflow.shift()) out.push(next);
    expect(out).toEqual([0, 1, 2, 3, 4].map(batch));
    expect(overflow.size).toBe(0);
  });

  it('gives back a batch that holds why a test failed as one that holds it', () => {
    const overflow = new Overflow();
    const failed = makeBatch(
      [{ testSuite: 's', testCase: 'c', status: 'failed', duration: 1, details: { message: 'boom' } }],
      'key-f',
    );
    overflow.push(failed);
    expect(overflow.shift()).toEqual({ ...failed, withDetails: true });
  });

  it('keeps its file private to the user and removes it once empty', () => {
    const overflow = new Overflow();
    overflow.push(batch(1));
    const file = (overflow as unknown as { file: string }).file;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    overflow.shift();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('can be filled again after it emptied', () => {
    const overflow = new Overflow();
    overflow.push(batch(1));
    overflow.shift();
    overflow.push(batch(2));
    expect(overflow.shift()).toEqual(batch(2));
    overflow.dispose();
  });
});
