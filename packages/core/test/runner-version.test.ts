import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { runnerVersion } from '../src/runner-version.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const rootRequire = createRequire(path.join(ROOT, 'package.json'));

function installedVersion(name: string): string {
  return (rootRequire(`${name}/package.json`) as { version: string }).version;
}

describe('runnerVersion', () => {
  it('reads the version of the package the project resolves from its folder', () => {
    expect(runnerVersion('jest', [ROOT])).toBe(installedVersion('jest'));
  });

  it('finds a package whose exports map hides its package.json by walking up from its entry', () => {
    const adapter = path.join(ROOT, 'packages', 'webdriverio');
    const adapterRequire = createRequire(path.join(adapter, 'package.json'));
    expect(() => adapterRequire('webdriverio/package.json')).toThrow(/not defined by "exports"/);
    // build/index.cjs, one folder below the package's root.
    const manifest = path.join(path.dirname(adapterRequire.resolve('webdriverio')), '..', 'package.json');
    const expected = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
    expect(runnerVersion('webdriverio', [adapter])).toBe(expected);
  });

  it('resolves from a module path as from its folder, and takes the first place that resolves', () => {
    const empty = tempDir('testrun-runner-version-');
    try {
      expect(runnerVersion('jest', [empty])).toBe('unknown');
      expect(runnerVersion('jest', [empty, path.join(ROOT, 'package.json')])).toBe(installedVersion('jest'));
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it("answers 'unknown' for a package nobody installed", () => {
    expect(runnerVersion('no-such-runner-package', [ROOT])).toBe('unknown');
  });
});
