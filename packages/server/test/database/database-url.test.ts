import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPostgresUrl, redactDatabaseUrl, secretsOf } from '../../src/database/database-url.js';

const src = path.resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? sources(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );
}

describe('the pg driver is loaded only for a PostgreSQL URL', () => {
  it('only database/postgres.ts imports pg, and only a dynamic import() loads postgres.ts', () => {
    const importsPg: string[] = [];
    const importsDriverStatically: string[] = [];
    for (const file of sources(src)) {
      const text = fs.readFileSync(file, 'utf8');
      const relative = path.relative(src, file);
      if (/from ['"]pg['"]|import\(['"]pg['"]\)/.test(text)) importsPg.push(relative);
      if (/from ['"][./]+(database\/)?postgres\.js['"]/.test(text)) importsDriverStatically.push(relative);
    }
    expect(importsPg).toEqual([path.join('database', 'postgres.ts')]);
    expect(importsDriverStatically).toEqual([]);
  });
});

describe('database URLs', () => {
  it('tells a PostgreSQL URL by its scheme', () => {
    expect(isPostgresUrl('postgres://db.example/testrun')).toBe(true);
    expect(isPostgresUrl('postgresql://u@db.example/testrun')).toBe(true);
    expect(isPostgresUrl('.testrun/server')).toBe(false);
    expect(isPostgresUrl('mysql://db.example/testrun')).toBe(false);
  });

  it('shows a URL with its password replaced, and keeps one without a password as it is', () => {
    expect(redactDatabaseUrl('postgres://ci:s%40cret@db.example:5432/testrun?sslmode=require')).toBe(
      'postgres://ci:***@db.example:5432/testrun?sslmode=require',
    );
    expect(redactDatabaseUrl('postgres://ci@db.example/testrun')).toBe('postgres://ci@db.example/testrun');
    expect(redactDatabaseUrl('postgres://ci:s3cret@db.example:port/x')).toBe(
      'postgres://ci:***@db.example:port/x',
    );
  });

  it('knows a password as written and decoded, to scrub both from messages', () => {
    expect(secretsOf('postgres://ci:s%40cret@db.example/testrun')).toEqual(['s%40cret', 's@cret']);
    expect(secretsOf('postgres://ci@db.example/testrun')).toEqual([]);
  });
});
