import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID, randomUUIDs, readDevice } from '../src/random-uuid.js';

const VERSION_4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const dir = tempDir('testrun-random-uuid-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('randomUUID', () => {
  it('makes version 4 UUIDs, none twice, across many refills of its pool', () => {
    const made = Array.from({ length: 5000 }, () => randomUUID());
    for (const id of made) expect(id).toMatch(VERSION_4);
    expect(new Set(made).size).toBe(made.length);
  });

  it('takes its bytes from the device, setting only the version and variant bits', () => {
    const counting = path.join(dir, 'counting');
    fs.writeFileSync(counting, Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)));
    const next = randomUUIDs(counting);
    expect(next()).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
    expect(next()).toBe('10111213-1415-4617-9819-1a1b1c1d1e1f');
  });

  it("answers with node:crypto's UUIDs where the device is missing, runs short or gives bytes all alike", () => {
    const short = path.join(dir, 'short');
    fs.writeFileSync(short, Buffer.from(Array.from({ length: 100 }, (_, i) => i)));
    const zeros = path.join(dir, 'zeros');
    fs.writeFileSync(zeros, Buffer.alloc(4096, 0));
    for (const device of [path.join(dir, 'no-such-device'), short, zeros]) {
      const next = randomUUIDs(device);
      const made = [next(), next(), next()];
      for (const id of made) expect(id).toMatch(VERSION_4);
      expect(new Set(made).size).toBe(3);
    }
  });

  it('keeps its bytes from a readSync a test replaced after core loaded', () => {
    const next = randomUUIDs();
    const real = fs.readSync;
    // As a stub that fills every buffer with the same bytes: 32 ids, then the same 32 again.
    fs.readSync = ((_fd: number, buffer: Buffer, offset: number, length: number) => {
      for (let i = 0; i < length; i += 1) buffer[offset + i] = i % 256;
      return length;
    }) as typeof fs.readSync;
    try {
      const made = Array.from({ length: 100 }, () => next());
      expect(new Set(made).size).toBe(100);
    } finally {
      fs.readSync = real;
    }
  });
});

describe('readDevice', () => {
  it('reads the bytes asked for, and nothing when there are fewer or no such file', () => {
    const file = path.join(dir, 'counted');
    fs.writeFileSync(file, Buffer.from([1, 2, 3, 4, 5]));
    expect([...(readDevice(file, 4) ?? [])]).toEqual([1, 2, 3, 4]);
    expect(readDevice(file, 6)).toBeUndefined();
    expect(readDevice(path.join(dir, 'missing'), 4)).toBeUndefined();
  });
});
