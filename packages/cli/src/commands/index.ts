import type { Command } from '../command.js';
import { createRun } from './create-run.js';
import { replay } from './replay.js';
import { serve } from './serve.js';
import { upload } from './upload.js';

/** The dispatch table: a command's name on the command line → the command. */
export const commands: Record<string, Command> = {
  serve,
  'create-run': createRun,
  replay,
  upload,
};
