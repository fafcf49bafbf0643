import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { paths } from '../paths.js';
import { html } from './html.js';
import { layout } from './layout.js';

// Playwright's own trace viewer, served by this server from the copy playwright-core ships
// (lib/vite/traceViewer), so a trace opens from the run page with no network beyond this
// server (docs/design/attachments.md). It is Playwright's code, not an upload: it runs script
// here, under its own policy below, and loads the trace (`?trace=`) from this server's files.
// It renders a trace's page snapshots through its service worker with a nonce-only script
// policy of its own, so a snapshot's scripts do not run. A service worker needs a secure
// context: HTTPS, or http://localhost / 127.0.0.1 (docs/attachments.md).

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

/** The viewer's folder in the installed playwright-core; undefined when it is not installed. */
export function traceViewerDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('playwright-core/package.json');
    const dir = path.join(path.dirname(manifest), 'lib', 'vite', 'traceViewer');
    return fs.existsSync(path.join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** The viewer's pages' policy: its own scripts (and the inline ones it ships, by hash), its workers and frames, this server only. */
export function traceViewerPolicy(dir: string): string {
  const inline = new Set<string>();
  for (const name of fs.readdirSync(dir).filter((file) => file.endsWith('.html'))) {
    const page = fs.readFileSync(path.join(dir, name), 'utf8');
    for (const match of page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      inline.add(`'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`);
    }
  }
  return [
    "default-src 'self'",
    `script-src 'self' ${[...inline].join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' data: blob:",
    "worker-src 'self'",
    // The viewer's data: frames (placeholders): a data: frame has an origin of its own.
    "frame-src 'self' data:",
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');
}

export function registerTraceViewer(app: FastifyInstance): void {
  const dir = traceViewerDir();
  const policy = dir ? traceViewerPolicy(dir) : undefined;
  app.get<{ Params: { '*': string } }>(paths.traceViewer, async (request, reply) => {
    if (!dir || !policy) {
      const content = html`<h1>No trace viewer here</h1><p>The trace viewer is served from <code>playwright-core</code>, which this server does not find: install it beside <code>@testrun/server</code> (<code>npm install playwright-core</code>), or open the trace with <code>npx playwright show-trace</code>.</p>`;
      return reply.code(404).type('text/html; charset=utf-8').send(layout('No trace viewer', content));
    }
    const file = viewerFile(dir, request.params['*'] ?? '');
    if (!file)
      return reply
        .code(404)
        .send({ error: { code: 'not_found', message: 'no such file of the trace viewer' } });
    reply.headers({
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': policy,
      'x-frame-options': 'SAMEORIGIN',
      'cache-control': 'private, max-age=3600',
    });
    return reply.send(fs.createReadStream(file));
  });
}

/** A file of the viewer's folder, by a path that stays inside it; undefined for anything else. */
function viewerFile(dir: string, wanted: string): string | undefined {
  const relative = wanted === '' ? 'index.html' : wanted;
  if (relative.includes('\0') || relative.split(/[\\/]/).includes('..')) return undefined;
  const file = path.resolve(dir, relative);
  if (!file.startsWith(dir + path.sep)) return undefined;
  try {
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}
