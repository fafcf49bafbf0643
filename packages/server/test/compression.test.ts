import http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../src/compression.js';
import { createRun, KEY, post, result, startServer } from './client.js';

// Real HTTP, read raw (fetch would decode behind our back), so the bytes on the wire are checked.

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const decoders: Record<string, (body: Buffer) => Buffer> = {
  gzip: (body) => zlib.gunzipSync(body),
  br: (body) => zlib.brotliDecompressSync(body),
};

describe('compression', () => {
  it('compresses pages and read-API answers for a client that accepts gzip or br, the decoded body identical', async () => {
    const server = await startServer();
    const runId = await createRun(server, { project: 'shop', framework: 'vitest', tags: ['branch:main'] });
    const results = Array.from({ length: 60 }, (_, n) => result({ testCase: `adds item ${n}`, duration: n }));
    await post(server, `/api/v1/runs/${runId}/results`, { results });
    const auth = { authorization: `Bearer ${KEY}` };

    for (const path of ['/', `/runs/${runId}`, '/flaky', `/api/v1/runs/${runId}/results`]) {
      const plain = await rawGet(`${server.url}${path}`, auth);
      expect(plain.status, path).toBe(200);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.headers.vary, path).toMatch(/Accept-Encoding/);
      expect(plain.body.length, path).toBeGreaterThan(1024);
      for (const encoding of ['gzip', 'br']) {
        const compressed = await rawGet(`${server.url}${path}`, { ...auth, 'accept-encoding': encoding });
        expect(compressed.status, path).toBe(200);
        expect(compressed.headers['content-encoding'], `${path} ${encoding}`).toBe(encoding);
        expect(compressed.headers['content-length'], path).not.toBe(String(plain.body.length));
        expect(compressed.body.length, `${path} ${encoding}`).toBeLessThan(plain.body.length / 2);
        const decoded = decoders[encoding]!(compressed.body).toString('utf8');
        // The pages say "just now" or "12 s ago": a second between the two reads may change that.
        const steady = (text: string) => text.replace(/>(just now|\d+ s ago)</g, '><');
        expect(steady(decoded), `${path} ${encoding}`).toBe(steady(plain.body.toString('utf8')));
      }
    }
  });

  it('leaves small answers and clients that accept neither as they are', async () => {
    const server = await startServer();
    const small = await rawGet(`${server.url}/api/v1/runs/nope`, {
      authorization: `Bearer ${KEY}`,
      'accept-encoding': 'gzip',
    });
    expect(small.status).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toMatchObject({ error: { code: 'run_not_found' } });

    const refused = await rawGet(`${server.url}/`, { 'accept-encoding': 'gzip;q=0, br;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString('utf8')).toContain('<h1>Runs</h1>');
  });
});

describe('chooseEncoding', () => {
  it('prefers br, then gzip, among the encodings the client gives a weight above 0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('deflate')).toBeUndefined();
    expect(chooseEncoding('GZIP;Q=1')).toBe('gzip');
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
  });
});
