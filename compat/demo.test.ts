import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cleanEnv, runProcess } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `pnpm demo`, the README's main job, as a real process (its output piped, as in CI): the
// failure it causes on purpose says so, it ends by itself unless told to keep its server up,
// and kept up, the links it printed open until it is stopped. Each example runs twice in one
// demo: the whole demo once (kept up), its end in CI with one example (`--only`).
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
  // One whole demo (every example, both rounds), kept up: what a person at a terminal sees.
  it('says the red Vitest failure of round 2 is on purpose, and with --keep keeps its server up for the links it printed until SIGTERM, then ends with 0', async () => {
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

    expect(runsPage, outcome.stdout).toBeDefined();
    const { url, status } = await runsPage!;
    expect(status).toBe(200);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.signal).toBeNull();
    expect(outcome.stdout).toContain('Ctrl-C stops it and ends the demo');
    expect(await answers(`${url}/`)).toBe(false);
  });

  // Its end in CI, with one example: the rounds are the test above's.
  it('ends by itself with piped output, its server stopped', async () => {
    const outcome = await runDemo(['--only', 'node-test']);

    expect(outcome.code, outcome.stderr).toBe(0);
    const { stdout } = outcome;
    expect(stdout).toContain('── round-2, node-test');
    expect(stdout).not.toContain('── round-1, vitest');
    expect(stdout.match(/^run \S+: completed$/gm), stdout).toHaveLength(2);
    const stopped = stdout.match(/server: (http:\/\/127\.0\.0\.1:\d+) \(stopped now/);
    expect(stopped, stdout).not.toBeNull();
    expect(await answers(`${stopped![1]}/`)).toBe(false);
  });

  it('refuses an --only that names no example, before it starts anything', async () => {
    const outcome = await runDemo(['--only', 'karma']);

    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      '--only takes a list of vitest, jest, playwright, mocha, cucumber, jasmine, node-test; got "karma".',
    );
    expect(outcome.stdout).toBe('');
  });
});
