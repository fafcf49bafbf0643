import { startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPLETE_RUN } from '../../src/options/complete-run-request.js';
import { resolveConfig } from '../../src/options/config.js';
import { endRequest, endRun, endsItsRun, runVerdict } from '../../src/run-end/end-run.js';

// The decisions every process that ends a run takes from this one module
// (docs/design/run-end.md#one-module-decides-it); what each caller does around them is tested where
// it lives.

describe('the verdict on a run', () => {
  it.each([
    [{}, 'completed'],
    [{ failedResults: true }, 'failed'],
    [{ runner: { failed: true } }, 'failed'],
    [{ exitCode: 0 }, 'completed'],
    [{ exitCode: 1 }, 'failed'],
    [{ exitCode: 143 }, 'failed'],
    [{ cancelled: true, failedResults: true }, 'interrupted'],
    [{ runner: { interrupted: true }, exitCode: 0 }, 'interrupted'],
    // Never greener than any evidence: a command that exits 0 after a failed result still failed.
    [{ exitCode: 0, failedResults: true }, 'failed'],
  ] as const)('%j ends the run %s', (evidence, status) => {
    expect(runVerdict(evidence).status).toBe(status);
  });

  it("keeps the command's exit code as it is", () => {
    expect(runVerdict({ exitCode: 1, failedResults: true }).exitCode).toBe(1);
    expect(runVerdict({ exitCode: 130, cancelled: true }).exitCode).toBe(130);
    expect(runVerdict({ failedResults: true }).exitCode).toBeUndefined();
  });

  // Quarantine's one rule (docs/design/quarantine.md): whoever weighed every failure decides `clears`;
  // here it only applies, and a cancel still wins.
  it.each([
    [{ exitCode: 1, failedResults: true, quarantine: { clears: true } }, 'completed', 0],
    [{ failedResults: true, runner: { failed: true }, quarantine: { clears: true } }, 'completed', undefined],
    [{ exitCode: 1, failedResults: true, quarantine: { clears: false } }, 'failed', 1],
    [{ exitCode: 130, cancelled: true, quarantine: { clears: true } }, 'interrupted', 130],
    [
      { runner: { interrupted: true }, failedResults: true, quarantine: { clears: true } },
      'interrupted',
      undefined,
    ],
  ] as const)('%j with quarantine ends the run %s, exit code %s', (evidence, status, exitCode) => {
    expect(runVerdict(evidence)).toEqual({ status, exitCode });
  });
});

describe('who ends a run', () => {
  it('is the process that created it, never one given its id or sharing its key', () => {
    expect(endsItsRun({ runId: undefined, runKey: undefined })).toBe(true);
    expect(endsItsRun({ runId: 'r1', runKey: undefined })).toBe(false);
    expect(endsItsRun({ runId: undefined, runKey: 'k' })).toBe(false);
  });
});

describe('the request that tells the service', () => {
  const custom = { method: 'POST' as const, path: '/runs/{runId}/end', body: '{"s":"{status}"}' };

  it("with 'auto', is the default where the service announced it, none where it did not, and left to replay's answer where nothing was heard", () => {
    expect(endRequest('auto', true)).toEqual({ request: DEFAULT_COMPLETE_RUN, ifAnnounced: false });
    expect(endRequest('auto', false)).toBeUndefined();
    expect(endRequest('auto', undefined)).toEqual({ request: DEFAULT_COMPLETE_RUN, ifAnnounced: true });
  });

  it('is the given request always, and none with false', () => {
    expect(endRequest(custom, false)).toEqual({ request: custom, ifAnnounced: false });
    expect(endRequest(false, true)).toBeUndefined();
  });

  it('asked for by a user, asks a service that said nothing and ignores false, but not a service that said no', () => {
    expect(endRequest('auto', undefined, { asked: true })).toEqual({
      request: DEFAULT_COMPLETE_RUN,
      ifAnnounced: false,
    });
    expect(endRequest(false, true, { asked: true })?.request).toBe(DEFAULT_COMPLETE_RUN);
    expect(endRequest('auto', false, { asked: true })).toBeUndefined();
  });
});

describe('endRun', () => {
  const configFor = (server: { url: string; apiKey: string }, options: object = {}) => {
    const resolution = resolveConfig({
      options: { apiKey: server.apiKey, baseUrl: server.url, ...options },
      env: {},
      rootDir: process.cwd(),
    });
    if (resolution.state !== 'enabled') throw new Error(resolution.state);
    return resolution.config;
  };

  it('tells a service that announced it, and says what the service answered', async () => {
    const { server, url, apiKey } = await startTestServer();
    const runId = await createRun(url, apiKey);
    const common = { config: configFor({ url, apiKey }), runId, userAgent: 'test' };
    expect(await endRun({ ...common, extensions: ['complete-run'], status: 'failed' })).toEqual({
      state: 'sent',
      status: 'failed',
    });
    // Already ended another way: a refusal, not a retry.
    const again = await endRun({ ...common, extensions: ['complete-run'], status: 'completed' });
    expect(again).toMatchObject({ state: 'refused', status: 'completed' });
    expect(server.requests.filter((request) => request.route === 'completeRun')).toHaveLength(2);
  });

  it('sends nothing where the service did not announce it, or completeRun is false', async () => {
    const { server, url, apiKey } = await startTestServer();
    const runId = await createRun(url, apiKey);
    const notAnnounced = await endRun({
      config: configFor({ url, apiKey }),
      runId,
      extensions: [],
      status: 'completed',
      userAgent: 'test',
    });
    expect(notAnnounced).toEqual({ state: 'not-announced', status: 'completed' });
    const off = await endRun({
      config: configFor({ url, apiKey }, { completeRun: false }),
      runId,
      extensions: ['complete-run'],
      status: 'completed',
      userAgent: 'test',
    });
    expect(off).toEqual({ state: 'off', status: 'completed' });
    expect(server.requests.filter((request) => request.route === 'completeRun')).toEqual([]);
  });
});

async function createRun(url: string, apiKey: string): Promise<string> {
  const answer = await fetch(`${url}/api/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: 'p', framework: 'vitest' }),
  });
  return ((await answer.json()) as { id: string }).id;
}
