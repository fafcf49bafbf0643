import type { FastifyInstance } from 'fastify';
import { checkBearer } from '../auth.js';
import { ApiError } from '../errors.js';
import { isApiRequest } from '../routes/paths.js';

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The first checks on every /api/ request, in this order: bearer key (401), then JSON
 * content type on requests with a body (415). They run before the body is read, and
 * also for /api/ paths that match no route, so that nothing is revealed to a client
 * without a key. The route decides, not the raw URL: `/%61pi/v1/runs` is the API too.
 */
export function registerGuards(app: FastifyInstance, apiKeys: ReadonlySet<string>): void {
  app.addHook('onRequest', async (request) => {
    if (!isApiRequest(request.routeOptions.url, request.url)) return;
    const denied = checkBearer(request.headers.authorization, apiKeys);
    if (denied) throw denied;
    if (methodsWithBody.has(request.method)) requireJson(request.headers['content-type']);
  });
}

function requireJson(contentType: string | undefined): void {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return;
  const got = contentType === undefined ? 'no Content-Type' : `"${contentType.slice(0, 100)}"`;
  throw new ApiError(415, 'unsupported_media_type', `Content-Type must be application/json, got ${got}`);
}
