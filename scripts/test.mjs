// `pnpm test`: Biome's lint first (a second), then the type check beside Vitest's unit and main
// projects. tsc uses one core for ~10 s while the unit tests mostly wait, so the two share the
// machine instead of taking turns; its output is held until Vitest is done, so the two never
// interleave. Fails when any of the three does. Arguments go to `vitest run`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = path.resolve(new URL('..', import.meta.url).pathname);
const bin = (name) => path.join(repo, 'node_modules', '.bin', name);

/**
 * Runs `command` to its end; `quiet` holds its output and answers it instead of printing it.
 * `wrap` turns [command, args] into what is spawned (scripts/test-time.mjs times it so).
 */
function step(name, command, args, { env = {}, quiet = false, wrap = (c, a) => [c, a] } = {}) {
  const started = performance.now();
  const [program, programArgs] = wrap(command, args, name);
  return new Promise((resolve) => {
    const child = spawn(program, programArgs, {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code, signal) =>
      resolve({ name, ms: performance.now() - started, ok: code === 0, status: signal ?? code, output }),
    );
  });
}

export const PROJECTS = ['--project', 'unit', '--project', 'main'];

/** Lint, then typecheck beside `vitest run <vitestArgs>`; answers each step's outcome, in that order. */
export async function testSteps({ vitestArgs = PROJECTS, env = {}, wrap, vitestOnly = false } = {}) {
  const vitest = () => step('vitest', bin('vitest'), ['run', ...vitestArgs], { env, wrap });
  if (vitestOnly) return [await vitest()];
  const lint = await step('lint', bin('biome'), ['check', '.'], { wrap });
  if (!lint.ok) return [lint];
  const [typecheck, tests] = await Promise.all([
    step('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], { quiet: true, wrap }),
    vitest(),
  ]);
  if (typecheck.output) process.stdout.write(`\n── typecheck ──\n${typecheck.output}`);
  return [lint, typecheck, tests];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const steps = await testSteps({ vitestArgs: [...PROJECTS, ...process.argv.slice(2)] });
  const failed = steps.filter((s) => !s.ok).map((s) => s.name);
  if (failed.length > 0) console.error(`\npnpm test: ${failed.join(', ')} failed`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}
