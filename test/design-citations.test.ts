import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeStale, staleCitations } from './citations.js';

// Every citation of a design decision, a doc page or one of its headings, in code, tests,
// scripts and docs, names a page and heading that exist (docs/design/README.md says the form:
// `docs/design/<file>.md#<heading>`). A renamed heading or a moved section fails here, naming
// each citation that still points at it.
const REPO = path.resolve(import.meta.dirname, '..');

/** The files a citation may sit in: source, tests, scripts, docs, config; tracked or new. */
function citingFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  }).split('\0');
  return listed.filter(
    (file) =>
      (/\.(?:[cm]?[jt]s|md|ya?ml|sh)$/.test(file) || file.startsWith('.ci/')) &&
      // These name the stale forms on purpose: the fixture, the module and its own test.
      !file.startsWith('test/fixtures/citations/') &&
      file !== 'test/citations.ts' &&
      file !== 'test/citations.test.ts' &&
      fs.existsSync(path.join(REPO, file)),
  );
}

describe('citations of the design and the docs', () => {
  const files = citingFiles();

  it('are looked for in code, tests, scripts and docs alike', () => {
    for (const dir of ['packages/', 'e2e/', 'scripts/', 'docs/design/', 'bench/', 'test/']) {
      expect(files.some((file) => file.startsWith(dir))).toBe(true);
    }
  });

  it('each name a page and a heading that exist', () => {
    expect(describeStale(staleCitations(REPO, files))).toEqual([]);
  });
});
