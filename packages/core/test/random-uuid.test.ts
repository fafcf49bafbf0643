import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID, randomUUIDs, readDevice } from '../src/random-uuid.js';

const VERSION_4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-random-uuid-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('randomUUID', () => {
  it('makes version 4 UUIDs, none twice, across many refills of its pool', () => {
    const made = Array.from({ length: 5000 }, () => randomUUID());
    for (const id of made) expect(id).toMatch(VERSION_4);
    expect(new Set(made).size).toBe(made.length);
  });

  it('takes its bytes from the device, setting only the version and variant bits', () => {
    const zeros = path.join(dir, 'zeros');
    fs.writeFileSync(zeros, Buffer.alloc(4096, 0));
    const ones = path.join(dir, 'ones');
    fs.writeFileSync(ones, Buffer.alloc(4096, 0xff));
    expect(randomUUIDs(zeros)()).toBe('00000000-0000-4000-8000-000000000000');
    expect(randomUUIDs(ones)()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });

  it("answers with node:crypto's UUIDs where the device is missing or runs short", () => {
    const short = path.join(dir, 'short');
    fs.writeFileSync(short, Buffer.alloc(100, 0));
    for (const device of [path.join(dir, 'no-such-device'), short]) {
      const next = randomUUIDs(device);
      const made = [next(), next(), next()];
      for (const id of made) expect(id).toMatch(VERSION_4);
      expect(new Set(made).size).toBe(3);
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
