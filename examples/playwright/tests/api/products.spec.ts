import { expect, test } from '../fixtures.js';

test.describe('products API', () => {
  test('lists the catalogue', async ({ request }) => {
    const response = await request.get('/api/products');
    expect(response.ok()).toBe(true);
    expect(await response.json()).toHaveLength(3);
  });

  test('finds a product by its slug', async ({ request }) => {
    const response = await request.get('/api/products/mug');
    expect(await response.json()).toMatchObject({ name: 'Enamel mug', price: 1200 });
  });

  test('answers 404 for an unknown product', async ({ request }) => {
    expect((await request.get('/api/products/unicorn')).status()).toBe(404);
  });
});
