import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { style } from './layout.js';

/**
 * The pages run no script at all, so the policy allows none; images and videos come from this
 * server alone (a failed test's files); their one inline <style> is
 * allowed by its hash rather than 'unsafe-inline', so markup injected into a page could
 * not style it either. Forms post only here, and no other site may frame a page
 * (clickjacking), which X-Frame-Options says again for browsers that predate the CSP rule.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`,
  // A failed test's screenshots and videos: this server's files only (served without script: serve-file.ts).
  "img-src 'self'",
  "media-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const headers = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

/** Every response, page, sign-in, redirect, error or API answer, carries the headers. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
