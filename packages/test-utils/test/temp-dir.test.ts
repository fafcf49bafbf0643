import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { expect, it } from 'vitest';
import { tempDir } from '../src/temp-dir.js';

it('makes a fresh folder under the temp dir for each call', () => {
  const [a, b] = [tempDir('testrun-temp-dir-test-'), tempDir('testrun-temp-dir-test-')];
  expect(a).not.toBe(b);
  for (const dir of [a, b]) {
    expect(path.dirname(dir)).toBe(os.tmpdir());
    expect(path.basename(dir)).toMatch(/^testrun-temp-dir-test-/);
    expect(fs.readdirSync(dir)).toEqual([]);
  }
});

/** Runs `end` in a process of its own after it made two folders with tempDir and filled them. */
function madeByAProcessThatEnds(end: string): { made: string[]; signal: NodeJS.Signals | null } {
  const work = tempDir('testrun-temp-dir-child-');
  try {
    // temp-dir.ts and signal-exit as one plain ES module.
    const module = path.join(work, 'temp-dir.mjs');
    buildSync({
      entryPoints: [fileURLToPath(new URL('../src/temp-dir.ts', import.meta.url))],
      outfile: module,
      bundle: true,
      format: 'esm',
      platform: 'node',
      logLevel: 'error',
    });
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import fs from 'node:fs';
         import { tempDir } from ${JSON.stringify(module)};
         const dirs = [tempDir('testrun-temp-dir-test-'), tempDir('testrun-temp-dir-test-')];
         fs.mkdirSync(dirs[0] + '/spool/nested', { recursive: true });
         fs.writeFileSync(dirs[1] + '/report.json', '{}');
         console.log(JSON.stringify(dirs));
         ${end}`,
      ],
      { encoding: 'utf8' },
    );
    return { made: JSON.parse(child.stdout.trim().split('\n')[0]!), signal: child.signal };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

it.each([
  ['ends', ''],
  ['is ended by SIGTERM', "process.kill(process.pid, 'SIGTERM'); setInterval(() => {}, 1000);"],
])('removes every folder it made, with what is inside, when the process %s', (_, end) => {
  const { made, signal } = madeByAProcessThatEnds(end);
  expect(signal).toBe(end ? 'SIGTERM' : null);
  expect(made).toHaveLength(2);
  for (const dir of made) expect(fs.existsSync(dir)).toBe(false);
});
