import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Installing any @testrun package never moves what a project already resolves
// (docs/design/installing.md). npm moves or refuses a project's package only to satisfy a peer
// range the installed package declares, its own or a dependency's, so the manifests are held to
// three rules here; compat/installing-into-projects.test.ts proves them on real projects with npm.
const repo = path.resolve(import.meta.dirname, '..');

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function manifestsIn(dir: string): Manifest[] {
  return fs
    .readdirSync(path.join(repo, dir))
    .map((name) => path.join(repo, dir, name, 'package.json'))
    .filter((file) => fs.existsSync(file))
    .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest);
}

const published = manifestsIn('packages').filter((manifest) => !manifest.private);
const byName = new Map(published.map((manifest) => [manifest.name, manifest]));
const peersOf = (manifest: Manifest) => Object.entries(manifest.peerDependencies ?? {});

/** Every version of `name` this repository runs: its own and each of the version matrix's installs. */
function testedVersions(name: string): string[] {
  const root = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as Manifest;
  return [root, ...manifestsIn('compat')]
    .map((manifest) => manifest.devDependencies?.[name] ?? manifest.dependencies?.[name])
    .flatMap((range) => (range ? [lowest(range)] : []));
}

function lowest(range: string): string {
  const [, major = '0', minor = '0', patch = '0'] = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(range) ?? [];
  return `${major}.${minor}.${patch}`;
}

function compare(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! - y![i]!;
  return 0;
}

describe.each(published.filter((manifest) => peersOf(manifest).length > 0))('$name', (manifest) => {
  it.each(peersOf(manifest))(
    'declares %s an optional peer, from a lowest version and with no upper bound, so npm never installs, moves or refuses a runner for it',
    (peer, range) => {
      expect(manifest.peerDependenciesMeta?.[peer]?.optional, `${peer} optional`).toBe(true);
      expect(range).toMatch(/^>=\d+\.\d+\.\d+$/);
    },
  );

  it.each(peersOf(manifest))(
    'starts %s at the oldest major the tests run, and covers the versions they run',
    (peer, range) => {
      const floor = range.replace('>=', '');
      const tested = testedVersions(peer).sort(compare);
      expect(tested.length, `a version of ${peer} is run by the tests`).toBeGreaterThan(0);
      // Playwright has no majors but 1: its minor is the unit its users stay on.
      const unit = (version: string) =>
        peer === '@playwright/test' ? version.split('.').slice(0, 2).join('.') : version.split('.')[0];
      expect(unit(floor)).toBe(unit(tested[0]!));
      expect(compare(floor, tested[0]!)).toBeLessThanOrEqual(0);
    },
  );
});

it('has no package depend on one that declares a peer: a dependency’s peers would bind every project that installs it', () => {
  const binding = published.flatMap((manifest) =>
    Object.keys(manifest.dependencies ?? {})
      .filter((dependency) => peersOf(byName.get(dependency) ?? { name: dependency }).length > 0)
      .map((dependency) => `${manifest.name} → ${dependency}`),
  );
  expect(binding).toEqual([]);
});
