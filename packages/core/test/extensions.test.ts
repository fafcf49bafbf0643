import { describe, expect, it } from 'vitest';
import { formatRunHandle, parseRunHandle } from '../src/extensions.js';

describe('run handles: a run id with what the service announced', () => {
  it('writes the id alone when the service announced nothing, as create-run always printed it', () => {
    expect(formatRunHandle('8f3c1a2b', [])).toBe('8f3c1a2b');
  });

  it('writes the announced extensions after the id, and reads them back', () => {
    const handle = formatRunHandle('8f3c1a2b', ['failure-details', 'complete-run']);
    expect(handle).toBe('8f3c1a2b;extensions=failure-details,complete-run');
    expect(parseRunHandle(handle)).toEqual({
      runId: '8f3c1a2b',
      extensions: ['failure-details', 'complete-run'],
    });
  });

  it('reads a bare id as unknown: nothing is known of what the service takes', () => {
    expect(parseRunHandle('8f3c1a2b')).toEqual({ runId: '8f3c1a2b', extensions: undefined });
    expect(parseRunHandle('9007199254740993')).toEqual({ runId: '9007199254740993', extensions: undefined });
  });

  it('reads an empty list as nothing announced', () => {
    expect(parseRunHandle('r1;extensions=')).toEqual({ runId: 'r1;extensions=', extensions: undefined });
  });

  it('keeps an id whole where the text after ";extensions=" is not a list of names', () => {
    for (const id of ['a;extensions=b c', 'a;extensions=x/y', ';extensions=failure-details', 'a;b;c']) {
      expect(parseRunHandle(id)).toEqual({ runId: id, extensions: undefined });
    }
  });

  it('takes the last ";extensions=" (an id may hold one) and drops names this client does not know', () => {
    expect(parseRunHandle('a;extensions=b;extensions=Complete-Run,future-thing')).toEqual({
      runId: 'a;extensions=b',
      extensions: ['complete-run'],
    });
  });
});

describe('a run handle that says the attachments’ limits', () => {
  it('writes the limits after the extensions and reads them back, either one alone too', () => {
    const handle = formatRunHandle('8f3c', ['failure-details', 'attachments'], {
      maxFileBytes: 104857600,
      maxRunBytes: 1073741824,
    });
    expect(handle).toBe('8f3c;extensions=failure-details,attachments;attachment-limits=104857600/1073741824');
    expect(parseRunHandle(handle)).toEqual({
      runId: '8f3c',
      extensions: ['failure-details', 'attachments'],
      attachmentLimits: { maxFileBytes: 104857600, maxRunBytes: 1073741824 },
    });
    expect(parseRunHandle('8f3c;extensions=attachments;attachment-limits=/500').attachmentLimits).toEqual({
      maxFileBytes: undefined,
      maxRunBytes: 500,
    });
  });

  it('writes no limits where the service took no files or said none', () => {
    expect(formatRunHandle('8f3c', ['complete-run'], { maxFileBytes: 1 })).toBe(
      '8f3c;extensions=complete-run',
    );
    expect(formatRunHandle('8f3c', ['attachments'], {})).toBe('8f3c;extensions=attachments');
  });

  it('keeps an id whole where what follows the list is not the limits', () => {
    for (const id of [
      'a;extensions=attachments;limits=1/2',
      'a;extensions=attachments;attachment-limits=1',
      'a;extensions=attachments;attachment-limits=x/2',
    ]) {
      expect(parseRunHandle(id)).toEqual({ runId: id, extensions: undefined });
    }
  });
});
