import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startDir } from './start-dir.js';

/**
 * The version of the runner package `name` that runs the project, for the run's `framework`:
 * resolved as the project resolves it, from each place of `from` in turn (a folder, or a
 * module's path or file: URL; by default the folder the run started in), else 'unknown'. Reporters get no
 * handle on most runners, so the version is read from the package.json above the package's
 * entry: a package whose exports map hides its package.json (WebdriverIO) is found too.
 */
export function runnerVersion(name: string, from: readonly string[] = [startDir]): string {
  for (const folder of from) {
    const version = versionFrom(name, folder);
    if (version !== undefined) return version;
  }
  return 'unknown';
}

function versionFrom(name: string, folder: string): string | undefined {
  let require: NodeJS.Require;
  try {
    require = createRequire(isFolder(folder) ? path.join(folder, 'package.json') : folder);
  } catch {
    return undefined;
  }
  try {
    return versionIn(require(`${name}/package.json`), name);
  } catch {}
  try {
    let dir = path.dirname(require.resolve(name));
    for (let depth = 0; depth < 5; depth++, dir = path.dirname(dir)) {
      const file = path.join(dir, 'package.json');
      if (!fs.existsSync(file)) continue;
      const version = versionIn(JSON.parse(fs.readFileSync(file, 'utf8')), name);
      if (version !== undefined) return version;
    }
  } catch {}
  return undefined;
}

function versionIn(manifest: unknown, name: string): string | undefined {
  const { name: found, version } = (manifest ?? {}) as { name?: unknown; version?: unknown };
  return found === name && typeof version === 'string' ? version : undefined;
}

function isFolder(place: string): boolean {
  if (place.startsWith('file:')) return false;
  try {
    return fs.statSync(place).isDirectory();
  } catch {
    return true;
  }
}
