import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import type { ShopOptions } from './tests/fixtures.js';

// A Chromium already on this machine (Debian's, or CHROMIUM_PATH); without one, the page
// tests are skipped: this example never downloads a browser.
const chromium =
  process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig<ShopOptions>({
  testDir: './tests',
  retries: 1,
  // The one line that reports this project's test runs (TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment).
  reporter: [['list'], ['@testrun/playwright']],
  projects: [
    { name: 'api', testDir: './tests/api' },
    {
      name: 'chromium',
      testDir: './tests/pages',
      use: {
        browserName: 'chromium',
        browserAvailable: chromium !== undefined,
        launchOptions: { executablePath: chromium, args: ['--no-sandbox'] },
      },
    },
  ],
});
