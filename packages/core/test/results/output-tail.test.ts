import { describe, expect, it } from 'vitest';
import { OUTPUT_TAIL_BYTES, OutputTail, outputAttachments } from '../../src/results/output-tail.js';

describe('OutputTail', () => {
  it('keeps everything a test printed while it is under 64 KB', () => {
    const tail = new OutputTail();
    tail.push('first line\n');
    tail.push(Buffer.from('second line\n'));
    expect(tail.attachment('stdout', 2)).toEqual({
      name: 'stdout',
      contentType: 'text/plain; charset=utf-8',
      body: Buffer.from('first line\nsecond line\n'),
      attempt: 2,
    });
  });

  it('keeps the last 64 KB of more, says how much was cut, and never starts inside a character', () => {
    const tail = new OutputTail();
    for (let i = 0; i < 40; i++) tail.push(`${'x'.repeat(4095)}\n`);
    // A character of three bytes across the cut: its two last bytes would be the tail's first.
    tail.push(`€${'y'.repeat(OUTPUT_TAIL_BYTES - 2)}`);
    const body = tail.attachment('stderr')!.body as Buffer;
    const [said, ...rest] = body.toString('utf8').split('\n');
    expect(said).toBe(`[… ${40 * 4096 + 3} bytes before this were cut: the last 64 KB are kept]`);
    expect(rest.join('\n')).toBe('y'.repeat(OUTPUT_TAIL_BYTES - 2));
    expect(body.toString('utf8')).not.toContain('\ufffd');
  });

  it('is no attachment when nothing was printed', () => {
    expect(new OutputTail().attachment('stdout')).toBeUndefined();
    expect(outputAttachments({ stdout: [], stderr: [''] })).toEqual([]);
  });
});

describe('outputAttachments', () => {
  it('makes the tail only when core asks for the bytes', () => {
    const [stdout, stderr] = outputAttachments({ stdout: ['ok\n'], stderr: [Buffer.from('warn\n')] }, 1);
    expect([stdout?.name, stderr?.name, stdout?.attempt]).toEqual(['stdout', 'stderr', 1]);
    expect(typeof stdout?.body).toBe('function');
    expect((stderr!.body as () => Buffer)().toString()).toBe('warn\n');
  });
});
