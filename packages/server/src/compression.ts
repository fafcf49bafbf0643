import { pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

// Pages and read-API answers compressed for clients that ask (Accept-Encoding), with node:zlib
// in one onSend hook: no dependency, and the hook sees every answer, a rendered string or a
// page streamed as it renders. Compression runs off the event loop (zlib's thread pool), so
// a large page being compressed never holds up a write.

/** Smaller answers go as they are: the headers of a compressed answer would cost about as much. */
const MIN_BYTES = 1024;

/** Text the pages and the API send; images, fonts and the rest are left alone. */
const COMPRESSIBLE = /^(text\/|application\/json\b)/i;

/**
 * Brotli at quality 4: about gzip's speed with a smaller result; the default (11) costs
 * tens of times more CPU than gzip, which a page rendered per request cannot afford.
 */
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

type Encoding = 'br' | 'gzip';

const compressors: Record<Encoding, (input: Buffer | string) => Promise<Buffer>> = {
  br: (input) => promisify(zlib.brotliCompress)(input, BROTLI_OPTIONS),
  gzip: promisify(zlib.gzip),
};

const streamCompressors: Record<Encoding, () => NodeJS.ReadWriteStream> = {
  br: () => zlib.createBrotliCompress(BROTLI_OPTIONS),
  gzip: () => zlib.createGzip(),
};

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (payload === null || payload === undefined || reply.hasHeader('content-encoding')) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    addVary(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (encoding === undefined || request.method === 'HEAD') return payload;
    if (payload instanceof Readable) {
      reply.header('content-encoding', encoding).removeHeader('content-length');
      // pipeline destroys the page's stream too when the client goes away mid-page.
      return pipeline(payload, streamCompressors[encoding](), () => {});
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (Buffer.byteLength(payload) < MIN_BYTES) return payload;
    const compressed = await compressors[encoding](payload);
    reply.header('content-encoding', encoding).removeHeader('content-length');
    return compressed;
  });
}

/** Caches must keep one copy per encoding. */
function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const present =
    vary === undefined
      ? []
      : String(vary)
          .split(',')
          .map((name) => name.trim());
  if (present.some((name) => name.toLowerCase() === 'accept-encoding' || name === '*')) return;
  reply.header('vary', [...present.filter((name) => name !== ''), 'Accept-Encoding'].join(', '));
}

/**
 * The encoding to answer in: br, else gzip, among those the client accepts with a weight
 * above 0 (`*` counts for both); undefined for identity. The client's weights only rule out;
 * between two it accepts, the server's preference decides, as RFC 9110 allows.
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  const accepted = (encoding: Encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return undefined;
}
