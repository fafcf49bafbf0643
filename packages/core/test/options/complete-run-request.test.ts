import { describe, expect, it } from 'vitest';
import { fillBody, fillPath } from '../../src/options/complete-run-request.js';

describe('the request that completes a run', () => {
  it('puts the run id in the path as one encoded segment', () => {
    expect(fillPath('/api/v1/runs/{runId}', 'a/b c')).toBe('/api/v1/runs/a%2Fb%20c');
  });

  it('writes status and run id into the body as JSON string content', () => {
    const body = fillBody('{"status":"{status}","run":"{runId}"}', 'failed', 'say "hi"\\');
    expect(JSON.parse(body)).toEqual({ status: 'failed', run: 'say "hi"\\' });
  });
});
