import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cleanEnv, runProcess } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `pnpm demo`, the README's main job, as a real process (its output piped, as in CI): the
// failure it causes on purpose says so, it ends by itself unless told to keep its server up,
// and kept up, the links it printed open until it is stopped.
const repo = path.resolve(import.meta.dirname, '..');
const DEMO_TIMEOUT_MS = 240_000;

function runDemo(args: string[], onSpawn?: (child: ChildProcess) => void) {
  return runProcess(process.execPath, ['scripts/demo.mjs', ...args], {
    cwd: repo,
    env: cleanEnv(),
    timeoutMs: DEMO_TIMEOUT_MS,
    onSpawn,
  });
}

/** Whether anything answers at `url`. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

describe('pnpm demo', { timeout: DEMO_TIMEOUT_MS + 10_000 }, () => {
  it('says the red Vitest failure of round 2 is on purpose, and ends by itself with piped output', async () => {
    const outcome = await runDemo([]);

    expect(outcome.code, outcome.stderr).toBe(0);
    const { stdout } = outcome;
    const round2Vitest = stdout.indexOf('── round-2, vitest');
    const before = stdout.indexOf(
      'On purpose: this round fails "Cart > keeps the cart when the page reloads"',
    );
    const after = stdout.indexOf(
      '(That failure of "Cart > keeps the cart when the page reloads" was on purpose.)',
    );
    const round2Jest = stdout.indexOf('── round-2, jest');
    const failure = stdout.indexOf('Tests  1 failed', round2Vitest);
    const marks = [round2Vitest, before, failure, after, round2Jest];
    expect(marks.includes(-1), stdout).toBe(false);
    expect([...marks].sort((a, b) => a - b)).toEqual(marks);
    expect(stdout.match(/one failure on purpose/g)).toHaveLength(1);
    // Every example's run ended and says how, as its reporter told the service: the failure on purpose's as failed.
    expect(stdout.match(/^run \S+: failed$/gm), stdout).toHaveLength(1);
    expect(stdout.match(/^run \S+: (?!completed$|failed$).*$/gm), stdout).toBeNull();

    const stopped = stdout.match(/server: (http:\/\/127\.0\.0\.1:\d+) \(stopped now/);
    expect(stopped, stdout).not.toBeNull();
    expect(await answers(`${stopped![1]}/`)).toBe(false);
  });

  it('with --keep, keeps its server up for the links it printed until SIGTERM, then ends with 0', async () => {
    let runsPage: Promise<{ url: string; status: number }> | undefined;
    const outcome = await runDemo(['--keep'], (child) => {
      let printed = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const kept = printed.match(/The server stays up, so the links above open: runs (\S+)\//);
        if (!kept || runsPage) return;
        const url = kept[1]!;
        runsPage = fetch(`${url}/`).then((response) => {
          child.kill('SIGTERM');
          return { url, status: response.status };
        });
      });
    });

    expect(runsPage, outcome.stdout).toBeDefined();
    const { url, status } = await runsPage!;
    expect(status).toBe(200);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.signal).toBeNull();
    expect(outcome.stdout).toContain('Ctrl-C stops it and ends the demo');
    expect(await answers(`${url}/`)).toBe(false);
  });
});
