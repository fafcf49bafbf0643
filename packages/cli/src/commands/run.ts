import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TLS_FLAGS } from '../cli-config.js';
import { defineCommand, UsageError } from '../command.js';
import { frameworkOf } from '../run/framework-name.js';
import { type CommandEnd, runCommand } from '../run/run-command.js';

// `testrun run [options] -- <command…>` (docs/design/testrun-run.md): one run around any test
// command. What it does with the service (create, end, summarize) is core's, in the one module
// that ends a run (run-end/); here: the command line, the command, and what to say.

export const run = defineCommand({
  name: 'run',
  positionals: '-- <command…>',
  about: `
Runs a test command inside one run: creates the run, runs the command with the run in
TESTRUN_RUN_ID (every reporter and "testrun upload" inside sends into it), passes its
input, output and signals through, then completes the run by how the command ended and
writes the CI summary ($GITHUB_STEP_SUMMARY on GitHub Actions, TESTRUN_SUMMARY elsewhere).
It exits with the command's own exit code (128 + n when signal n ended it), but 0 when
the command is one test runner that failed for quarantined tests alone (docs/quarantine.md):

  npx @testrun/cli run -- npx vitest run
  npx @testrun/cli run --project api -- sh -c 'pytest --junitxml=r.xml; npx @testrun/cli upload r.xml'

When the service cannot be reached, or TESTRUN_API_KEY is not set, the command runs as it
would without testrun, and one line says so. The API key is never printed.
Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment.
`,
  flags: {
    project: { type: 'string', value: '<name>', option: 'project' },
    framework: {
      type: 'string',
      value: '<name>',
      help: "the run's framework (default: the command's runner, e.g. vitest, jest, playwright, pytest)",
    },
    tags: { type: 'string', value: '<a,b>', option: 'tags' },
    'no-ci-tags': { type: 'boolean', negates: 'ciTags', help: 'do not add CI tags' },
    summary: { type: 'string', value: '<path>', option: 'summary' },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, positionals, output }) => {
    const [program, ...args] = positionals;
    if (program === undefined) {
      throw new UsageError('give the command to run after --, e.g. testrun run -- npx vitest run');
    }
    const framework = values.framework?.trim() || frameworkOf(positionals);
    // A terminal closed under it (SIGHUP) fails its writes: testrun still ends the run.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    // The run's side (core's, loaded after the arguments are read): the command is never
    // kept waiting on more than creating the run.
    const { startRunAround } = await import('../run/run-around.js');
    const around = await startRunAround({ options, framework, output, command: positionals });
    const partsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-run-'));
    try {
      const end: CommandEnd = await runCommand(program, args, { ...process.env, ...around.env(partsDir) });
      if (end.notStarted) output.error(end.notStarted);
      // The command has ended: a signal now ends testrun at once, with the command's code.
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
        process.once(signal, () => process.exit(end.exitCode));
      }
      return await around.end(end, partsDir);
    } finally {
      fs.rmSync(partsDir, { recursive: true, force: true });
    }
  },
});
