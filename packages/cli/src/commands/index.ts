import type { Command } from '../command.js';

export interface CommandEntry {
  /** One line for `testrun --help`. */
  summary: string;
  load(): Promise<Command>;
}

/**
 * The dispatch table: a command's name on the command line → its summary, and its module,
 * loaded only when it runs (`create-run` in CI does not load the server and Fastify).
 */
export const commands: Record<string, CommandEntry> = {
  run: {
    summary: 'run a test command inside one run, ended by how the command ends, and summarize it for CI',
    load: async () => (await import('./run.js')).run,
  },
  serve: {
    summary: 'run a local Test Run Reporting Service, for trying the reporters',
    load: async () => (await import('./serve.js')).serve,
  },
  'create-run': {
    summary: 'create a run and print its id, for CI jobs that report into one run',
    load: async () => (await import('./create-run.js')).createRun,
  },
  'complete-run': {
    summary: 'complete a run that shards shared, once every shard has reported',
    load: async () => (await import('./complete-run.js')).completeRun,
  },
  summary: {
    summary: 'write the CI summary of a run, e.g. one that shards shared, in the job after them',
    load: async () => (await import('./summary.js')).summary,
  },
  quarantine: {
    summary: "quarantine a project's flaky test, lift it, or list them: its failures stop failing the build",
    load: async () => (await import('./quarantine.js')).quarantine,
  },
  replay: {
    summary: 'send results that a run could not deliver and spooled',
    load: async () => (await import('./replay.js')).replay,
  },
  plan: {
    summary: "print one shard's test files, split so that the shards end together",
    load: async () => (await import('./plan.js')).plan,
  },
  upload: {
    summary: 'send JUnit XML and CTRF reports from any test framework into a run',
    load: async () => (await import('./upload.js')).upload,
  },
};
