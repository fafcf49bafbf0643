import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished, type TestContext } from 'vitest';

/**
 * A real disk of `size` (a tmpfs, `size=16k`, `1m`) mounted for the current test, to fill up:
 * the folder it is mounted on, and `grow(size)` to free space without unmounting. The test is
 * skipped, saying why, where mounting is refused (not root, or no CAP_SYS_ADMIN).
 */
export function mountSmallDisk(
  context: TestContext,
  size: string,
): { mountPoint: string; grow(size: string): void } {
  const mountPoint = mkdtempSync(join(tmpdir(), 'testrun-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mountPoint], { stdio: 'ignore' });
  } catch {
    rmSync(mountPoint, { recursive: true, force: true });
    context.skip('needs a small tmpfs: `mount -t tmpfs` was refused (not root, or no CAP_SYS_ADMIN here)');
  }
  onTestFinished(() => {
    execFileSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });
  return {
    mountPoint,
    grow: (larger) => execFileSync('mount', ['-o', `remount,size=${larger}`, mountPoint]),
  };
}
