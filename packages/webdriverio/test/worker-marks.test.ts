import fs from 'node:fs';
import { tempDir } from '@testrun/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearMark,
  markWorker,
  readMark,
  readMarks,
  STARTED_WORKERS_VAR,
  workerEnd,
} from '../src/worker-marks.js';

// What the launcher service knows of a worker from the marks its reporter leaves: whether the
// worker died before its reporter heard of its files, died mid-run, or reported its end.

describe('a worker that ended', () => {
  it('leaves nothing to say when it passed, will be retried, or its reporter saw its files end', () => {
    expect(workerEnd({ ended: false }, 0, 0)).toBe('reported');
    expect(workerEnd(undefined, 1, 2)).toBe('reported');
    expect(workerEnd({ ended: true, failures: 3 }, 1, 0)).toBe('reported');
  });

  it('never ran its files when its reporter never heard of them, and died mid-run when it heard of them only', () => {
    expect(workerEnd(undefined, 1, 0)).toBe('never-started');
    expect(workerEnd({ ended: false }, 137, 0)).toBe('died');
    // A worker ended by a signal: WebdriverIO's exit code is null.
    expect(workerEnd({ ended: false }, null as unknown as number, 0)).toBe('died');
  });
});

describe('the marks', () => {
  const saved = { dir: process.env[STARTED_WORKERS_VAR], cid: process.env.WDIO_WORKER_ID };
  let dir: string;

  beforeEach(() => {
    dir = tempDir('wdio-marks-');
    process.env[STARTED_WORKERS_VAR] = dir;
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    for (const [name, value] of [
      [STARTED_WORKERS_VAR, saved.dir],
      ['WDIO_WORKER_ID', saved.cid],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('say a worker started, then ended with its count of failures; a retry starts it afresh', () => {
    process.env.WDIO_WORKER_ID = '0-1';
    expect(readMark('0-1')).toBeUndefined();
    markWorker();
    expect(readMark('0-1')).toEqual({ ended: false });
    markWorker(2);
    expect(readMark('0-1')).toEqual({ ended: true, failures: 2 });
    process.env.WDIO_WORKER_ID = '1-0';
    markWorker(0);
    expect(readMarks()).toEqual(
      expect.arrayContaining([
        { ended: true, failures: 2 },
        { ended: true, failures: 0 },
      ]),
    );
    clearMark('0-1');
    expect(readMark('0-1')).toBeUndefined();
  });

  it('are nothing without the launcher’s folder (a worker run without the service)', () => {
    delete process.env[STARTED_WORKERS_VAR];
    process.env.WDIO_WORKER_ID = '0-0';
    markWorker();
    expect(readMark('0-0')).toBeUndefined();
    expect(readMarks()).toEqual([]);
  });
});
