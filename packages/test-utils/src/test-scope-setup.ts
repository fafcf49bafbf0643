import { afterAll } from 'vitest';
import { runFileEndCleanups } from './test-scope.js';

// A setup file of every test project (vitest.config.ts): what concurrent tests started ends
// with their file (test-scope.ts).
afterAll(runFileEndCleanups);
