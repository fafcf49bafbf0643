import { expect, test } from '../fixtures.js';

// These tests drive a browser. Without one configured (see playwright.config.ts) they are
// skipped, never downloaded, so the example runs anywhere.
test.skip(({ browserAvailable }) => !browserAvailable, 'no Chromium here: set CHROMIUM_PATH to run these');

test.describe('storefront', () => {
  test('lists every product', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('listitem')).toHaveCount(3);
  });

  test('counts what is added to the cart', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Add to cart' }).first().click();
    await page.getByRole('button', { name: 'Add to cart' }).last().click();
    await expect(page.locator('output')).toHaveText('2');
  });
});
