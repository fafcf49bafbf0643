import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkFrameworks } from './fixtures.js';
import type { Framework } from './frameworks.js';

/** A test file of a timed suite: its path in the suite, and how long its one test takes. */
export interface TimedFile {
  name: string;
  ms: number;
}

/**
 * A suite whose files each hold one test that takes a given time, written in `framework`'s
 * own form into a fresh folder (its node_modules linking this repo's frameworks and
 * reporters): what shard plans split. Every framework's copy names its files alike, so the
 * service's durations of one serve all. The default configs read the reporter's options from
 * FIXTURE_REPORTER_OPTIONS and run one worker (the files are few, and a runner's workers are
 * most of what a run costs); `configs` replaces them (a README's config, as it is). No config
 * names the files: each run is given them, as `testrun plan` prints them, or finds them by
 * its pattern.
 */
export function timedSuite(
  framework: Framework['name'],
  files: readonly TimedFile[],
  configs: Record<string, string> = CONFIGS[framework],
): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `testrun-timed-${framework}-`));
  linkFrameworks(dir);
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  write('package.json', `${JSON.stringify({ name: 'timed-suite', private: true })}\n`);
  for (const [name, text] of Object.entries(configs)) write(name, text);
  for (const { name, ms } of files) write(name, testFile(framework, ms));
  return dir;
}

const OPTIONS = "const options = JSON.parse(process.env.FIXTURE_REPORTER_OPTIONS ?? '{}');";

const CONFIGS: Record<Framework['name'], Record<string, string>> = {
  vitest: {
    'vitest.config.mjs': `import { defineConfig } from 'vitest/config';

${OPTIONS}

export default defineConfig({
  test: {
    isolate: false,
    maxWorkers: 1,
    include: ['**/*.test.js'],
    reporters: ['default', ['@testrun/vitest', options]],
  },
});
`,
  },
  jest: {
    'jest.config.cjs': `${OPTIONS}

module.exports = {
  testMatch: ['**/*.test.js'],
  maxWorkers: 1,
  reporters: ['default', ['@testrun/jest', options]],
};
`,
  },
  playwright: {
    'playwright.config.mjs': `import { defineConfig } from '@playwright/test';

${OPTIONS}

export default defineConfig({
  testMatch: '**/*.test.js',
  workers: 1,
  reporter: [['list'], ['@testrun/playwright', options]],
});
`,
  },
  mocha: {
    '.mocharc.cjs': `${OPTIONS}

module.exports = {
  reporter: '@testrun/mocha',
  'reporter-option': Object.entries(options).map(
    ([name, value]) => \`\${name}=\${typeof value === 'string' ? value : JSON.stringify(value)}\`,
  ),
};
`,
  },
  'node-test': {},
};

function testFile(framework: Framework['name'], ms: number): string {
  const body = `() => new Promise((resolve) => setTimeout(resolve, ${ms}))`;
  switch (framework) {
    case 'playwright':
      return `const { test } = require('@playwright/test');\n\ntest('takes ${ms} ms', ${body});\n`;
    case 'node-test':
      return `const { test } = require('node:test');\n\ntest('takes ${ms} ms', ${body});\n`;
    case 'vitest':
      return `import { it } from 'vitest';\n\nit('takes ${ms} ms', ${body});\n`;
    default:
      // Jest and Mocha alike.
      return `it('takes ${ms} ms', ${body});\n`;
  }
}
