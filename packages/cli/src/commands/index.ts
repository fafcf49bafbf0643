import type { Command } from '../command.js';
import * as createRun from './create-run.js';
import * as replay from './replay.js';
import * as serve from './serve.js';

/** The dispatch table: a command's name on the command line → its module. */
export const commands: Record<string, Command> = {
  serve,
  'create-run': createRun,
  replay,
};
