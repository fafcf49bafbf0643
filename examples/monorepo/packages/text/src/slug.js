/** Where this code runs: edge runtimes define the EdgeRuntime global. */
function runtime() {
  return typeof globalThis.EdgeRuntime === 'string' ? 'edge' : 'node';
}

/** "Hello, World!" → "hello-world". */
function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

module.exports = { runtime, slugify };
