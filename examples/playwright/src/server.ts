import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CATALOGUE, findProduct, lineTotal } from './catalogue.js';

/** The shop: a storefront page and a small JSON API, on 127.0.0.1 and the given port (0: any free one). */
export async function startShop(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://shop');
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(storefront());
    } else if (url.pathname === '/api/products') {
      send(200, CATALOGUE);
    } else if (url.pathname.startsWith('/api/products/')) {
      const product = findProduct(url.pathname.slice('/api/products/'.length));
      if (product) send(200, product);
      else send(404, { error: 'no such product' });
    } else if (url.pathname === '/api/quote') {
      const product = findProduct(url.searchParams.get('slug') ?? '');
      const quantity = Number(url.searchParams.get('quantity'));
      if (!product) send(404, { error: 'no such product' });
      else if (!Number.isInteger(quantity) || quantity < 1)
        send(400, { error: 'quantity must be 1 or more' });
      else
        send(200, {
          total: lineTotal(product.price, quantity, Number(url.searchParams.get('discount') ?? 0)),
        });
    } else {
      send(404, { error: 'not found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function storefront(): string {
  const items = CATALOGUE.map(
    (product) => `<li>${product.name} <button data-slug="${product.slug}">Add to cart</button></li>`,
  ).join('');
  return `<!doctype html><title>Shop</title><h1>Shop</h1><p>Cart: <output>0</output> items</p><ul>${items}</ul>
<script>
  const count = document.querySelector('output');
  for (const button of document.querySelectorAll('button')) {
    button.addEventListener('click', () => { count.textContent = String(Number(count.textContent) + 1); });
  }
</script>`;
}
