import { test as base } from '@playwright/test';
import { startShop } from '../src/server.js';

export interface ShopOptions {
  /** Whether the project has a browser to drive; set in playwright.config.ts. */
  browserAvailable: boolean;
}

/** Every test gets the shop, started once per worker on a free port, as its baseURL. */
export const test = base.extend<ShopOptions, { shopUrl: string }>({
  browserAvailable: [false, { option: true }],
  shopUrl: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const shop = await startShop();
      await use(shop.url);
      await shop.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ shopUrl }, use) => use(shopUrl),
});

export { expect } from '@playwright/test';
