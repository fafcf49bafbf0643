import fs from 'node:fs';
import path from 'node:path';

/** The `project` option's default: `name` of the nearest package.json at or above the root; else the folder's name. */
export function defaultProject(rootDir: string): string {
  for (let dir = path.resolve(rootDir); ; dir = path.dirname(dir)) {
    const name = readPackageName(path.join(dir, 'package.json'));
    if (name) return name;
    if (path.dirname(dir) === dir) return path.basename(path.resolve(rootDir)) || 'unnamed';
  }
}

function readPackageName(file: string): string | undefined {
  try {
    const { name } = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown };
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}
