import fs from 'node:fs';
import path from 'node:path';
import {
  PUBLISHED_PACKAGES as PACKAGES,
  PACKAGES_DIR,
  type PackageDir,
  packageName,
  runProcess as run,
  succeeded,
} from '@testrun/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { packedTarballs } from './consumer.js';

// What `pnpm release` would publish: each package's tarball, read without installing it.

const tarballs = {} as Record<PackageDir, string>;

beforeAll(async () => {
  Object.assign(tarballs, await packedTarballs());
  const packed = fs.readdirSync(path.dirname(tarballs.core)).filter((name) => name.endsWith('.tgz'));
  expect(packed, 'pnpm -r pack made a tarball of these packages only').toHaveLength(PACKAGES.length);
}, 120_000);

describe('the packed tarballs', () => {
  it.each(PACKAGES)('@testrun/%s depends on real versions, not workspace:*', async (dir) => {
    const manifest = JSON.parse(await tarFile(tarballs[dir], 'package/package.json')) as Manifest;

    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    const sections = [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies];
    for (const section of sections) {
      for (const [name, range] of Object.entries(section ?? {})) {
        if (name.startsWith('@testrun/')) expect(range, name).toBe(workspaceVersion(name));
      }
    }
    expect(manifest.name).toBe(packageName(dir));
    expect(manifest.version).toBe(workspaceVersion(manifest.name));
  });

  it.each(PACKAGES)('@testrun/%s holds the built code, its types and docs, and nothing else', async (dir) => {
    const entries = await tarList(tarballs[dir]);
    const files = new Set(entries.filter((entry) => !entry.endsWith('/')));

    for (const name of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
      expect(files, `${dir}: ${name}`).toContain(`package/${name}`);
    }
    // Every source module, compiled, with its declarations (a .cts module: .cjs and .d.cts).
    // Core's modules are bundled (scripts/bundle-core.mjs): tsc's copy of each would be
    // unreachable through its exports map, so only their declarations ship.
    for (const { module, js, dts } of sourceModules(dir)) {
      if (dir !== 'core')
        expect(files, `${dir}: dist/${module}${js}`).toContain(`package/dist/${module}${js}`);
      expect(files, `${dir}: dist/${module}${dts}`).toContain(`package/dist/${module}${dts}`);
    }
    if (dir === 'core') {
      // Bundles apart from the reporters' core, each loaded only by what uses it: the CI summary
      // (when a summary is written), shard plans (`@testrun/core/plan`: `testrun plan`, the
      // sequencers), quarantine (once a test failed in a run whose service announced it), and the
      // attachments' stage (when a run has files) with what it shares with index.js.
      const code = [...files].filter((file) => /\.c?js$/.test(file)).sort();
      expect(code).toEqual([
        'package/dist/attachments.js',
        'package/dist/index.js',
        'package/dist/plan.js',
        'package/dist/quarantine/index.js',
        expect.stringMatching(/^package\/dist\/shared-[A-Z0-9]+\.js$/),
        'package/dist/summary/index.js',
      ]);
    }
    // Whatever the manifest points at is in the tarball.
    const manifest = JSON.parse(await tarFile(tarballs[dir], 'package/package.json')) as Manifest;
    for (const target of manifestTargets(manifest)) {
      expect(files, `${dir}: ${target}, named in package.json`).toContain(
        `package/${path.posix.normalize(target)}`,
      );
    }

    const unwanted = [...files].filter(
      (file) =>
        /\/(test|tests|__tests__|fixtures|src)\//.test(file) ||
        /\.(test|spec)\.[cm]?[jt]s$/.test(file) ||
        /tsconfig[^/]*\.json$/.test(file) ||
        file.endsWith('.tsbuildinfo') ||
        (file.endsWith('.ts') && !file.endsWith('.d.ts')),
    );
    expect(unwanted, `${dir}: tests, fixtures, sources or build config`).toEqual([]);
    const unexpected = [...files].filter(
      (file) =>
        !/^package\/(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+\.(c?js|d\.c?ts)|bin\/[^/]+\.js)$/.test(
          file,
        ),
    );
    expect(unexpected, `${dir}: files outside dist, bin and the docs`).toEqual([]);
  });
});

interface Manifest {
  name: string;
  version: string;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function packageDir(dir: PackageDir): string {
  return path.join(PACKAGES_DIR, dir);
}

function workspaceVersion(name: string): string {
  const dir = PACKAGES.find((candidate) => packageName(candidate) === name)!;
  return (JSON.parse(fs.readFileSync(path.join(packageDir(dir), 'package.json'), 'utf8')) as Manifest)
    .version;
}

/** `src/commands/serve.ts` → `commands/serve` and what tsc makes of it, for every source module of the package. */
function sourceModules(dir: PackageDir): { module: string; js: string; dts: string }[] {
  const src = path.join(packageDir(dir), 'src');
  return (fs.readdirSync(src, { recursive: true }) as string[])
    .filter((file) => /\.c?ts$/.test(file) && !/\.d\.c?ts$/.test(file))
    .map((file) => {
      const commonJs = file.endsWith('.cts');
      return {
        module: file
          .replace(/\.c?ts$/, '')
          .split(path.sep)
          .join('/'),
        js: commonJs ? '.cjs' : '.js',
        dts: commonJs ? '.d.cts' : '.d.ts',
      };
    });
}

/** Every file path in main, types, bin and exports. */
function manifestTargets(manifest: Manifest): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect([manifest.main, manifest.types, manifest.bin, manifest.exports]);
  return targets;
}

async function tarList(tarball: string): Promise<string[]> {
  const listing = succeeded(await run('tar', ['-tzf', tarball]), `tar -tzf ${tarball}`);
  return listing.stdout.split('\n').filter(Boolean);
}

async function tarFile(tarball: string, file: string): Promise<string> {
  return succeeded(await run('tar', ['-xzOf', tarball, file]), `tar -xzOf ${tarball} ${file}`).stdout;
}
