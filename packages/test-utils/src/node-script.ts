import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runProcess } from './process.js';
import { tempDir } from './temp-dir.js';

/**
 * Runs `source` as an ES module in a fresh Node process (from the repo root, so
 * `@testrun/core` resolves to the build) and parses the last line it prints as JSON.
 * For what only a process of its own shows: exit handlers, signals, garbage collection,
 * what is left running, which modules it loads (`resolved`: every specifier ESM resolved).
 */
export async function runNodeScript<T>(
  source: string,
  { env = {}, nodeArgs = [] }: { env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<{ code: number | null; stderr: string; result: T; resolved: string[] }> {
  const trace = traceModules();
  const outcome = await runProcess(
    process.execPath,
    [...trace.nodeArgs, ...nodeArgs, '--input-type=module', '-e', source],
    { cwd: REPO_ROOT, env: { ...process.env, ...env } },
  );
  const last = outcome.stdout.trim().split('\n').at(-1) ?? '';
  let result: T;
  try {
    result = JSON.parse(last) as T;
  } catch {
    throw new Error(
      `the script printed no JSON last line (exit ${outcome.code}):\n${outcome.stdout}\n${outcome.stderr}`,
    );
  }
  return { code: outcome.code, stderr: outcome.stderr, result, resolved: trace.specifiers() };
}

const REPO_ROOT = new URL('../../../', import.meta.url).pathname;

export interface ModuleTrace {
  /** Node's arguments that install the tracer in the process they start. */
  nodeArgs: string[];
  /** Every specifier the process resolved (import and require), in order. */
  specifiers(): string[];
  /** The URL each of them resolved to, in order (one that failed to resolve is not there). */
  urls(): string[];
}

/** A loader hook that writes every specifier a process resolves, and where to, to files read back here. */
export function traceModules(): ModuleTrace {
  const dir = tempDir('testrun-resolved-');
  const specifiers = path.join(dir, 'specifiers.txt');
  const urls = path.join(dir, 'urls.txt');
  const hooks = path.join(dir, 'hooks.mjs');
  fs.writeFileSync(
    hooks,
    `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  fs.appendFileSync(${JSON.stringify(specifiers)}, specifier + '\\n');
  const resolved = await next(specifier, context);
  fs.appendFileSync(${JSON.stringify(urls)}, resolved.url + '\\n');
  return resolved;
}`,
  );
  const register = path.join(dir, 'register.mjs');
  fs.writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const lines = (file: string) =>
    fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  return {
    nodeArgs: ['--import', pathToFileURL(register).href],
    specifiers: () => lines(specifiers),
    urls: () => lines(urls),
  };
}
