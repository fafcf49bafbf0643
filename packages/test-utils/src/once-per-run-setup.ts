// Vitest's globalSetup for the projects whose files share once-done work (once-per-run.ts): a
// folder for this run, removed with what the work left in it (an installed project's
// node_modules) when the run ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type {} from './once-per-run.js';

export default function setup(project: TestProject): () => void {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-once-per-run-'));
  project.provide('oncePerRunDir', folder);
  return () => fs.rmSync(folder, { recursive: true, force: true });
}
