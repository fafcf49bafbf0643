import {
  FRAMEWORKS,
  hasOpenssl,
  identities,
  makeTestCertificates,
  PASSING_RESULTS,
  readPem,
  readSpoolLines,
  reporterEnv,
  startTestServer,
  type TestCertificates,
  testrunLines,
} from '@testrun/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';

// "Private CA and mutual TLS" (README), through real Vitest and Jest processes against a
// real HTTPS server whose certificates are made for this test.

describe.skipIf(!hasOpenssl())('a service with a private CA', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });

  const serve = (clientCa?: boolean) =>
    startTestServer({
      https: {
        cert: readPem(certs.server.cert),
        key: readPem(certs.server.key),
        clientCa: clientCa ? readPem(certs.caCert) : undefined,
      },
    });

  describe.each(FRAMEWORKS)('$name', ({ run, fixtures: own }) => {
    it.each([
      ['NODE_EXTRA_CA_CERTS', () => ({ NODE_EXTRA_CA_CERTS: certs.caCert })],
      ['TESTRUN_CA_CERT', () => ({ TESTRUN_CA_CERT: certs.caCert })],
    ])('delivers every result when %s names the CA', async (_how, trust) => {
      const server = await serve();
      const outcome = await run({ cwd: own.passing, env: reporterEnv(server, trust()) });
      expect(outcome.code).toBe(0);
      expect(identities(await server.server.store.allResults())).toEqual(identities(PASSING_RESULTS));
      // The local server links the run's page, so the summary shows it.
      expect(testrunLines(outcome.stderr).at(-1)).toMatch(/ https:\/\/127\.0\.0\.1:\d+\/runs\//);
    });

    it('fails fast when nothing says to trust the CA: one line with the fix, one request, results spooled', async () => {
      const server = await serve();
      const env = reporterEnv(server, { TESTRUN_DEBUG: '1' });
      const outcome = await run({ cwd: own.passing, env });
      expect(outcome.code).toBe(0);
      const lines = testrunLines(outcome.stderr);
      expect(lines.filter((line) => line.includes('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toEqual([
        expect.stringMatching(/POST .* failed after [\d.]+ m?s: UNABLE_TO_VERIFY_LEAF_SIGNATURE$/),
        expect.stringMatching(
          /certificate is not trusted .*NODE_EXTRA_CA_CERTS=\/path\/ca\.pem.*Nothing more is sent/,
        ),
      ]);
      expect(lines.at(-1)).toMatch(/\(1 request, .*7 spooled to/);
      const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
      expect(identities(spooled.flatMap((line) => line.results as never[]))).toEqual(
        identities(PASSING_RESULTS),
      );
    });

    it('delivers with a client certificate the service requires (TESTRUN_CLIENT_CERT, TESTRUN_CLIENT_KEY)', async () => {
      const server = await serve(true);
      const env = reporterEnv(server, {
        TESTRUN_CA_CERT: certs.caCert,
        TESTRUN_CLIENT_CERT: certs.client.cert,
        TESTRUN_CLIENT_KEY: certs.client.key,
      });
      const outcome = await run({ cwd: own.passing, env });
      expect(outcome.code).toBe(0);
      expect(identities(await server.server.store.allResults())).toEqual(identities(PASSING_RESULTS));
      expect(outcome.stdout + outcome.stderr).not.toContain(readPem(certs.client.key).split('\n')[1]);
    });

    it('is refused without the client certificate: not retried, spooled, one line saying which options', async () => {
      const server = await serve(true);
      const env = reporterEnv(server, { TESTRUN_CA_CERT: certs.caCert });
      const outcome = await run({ cwd: own.passing, env });
      expect(outcome.code).toBe(0);
      const lines = testrunLines(outcome.stderr);
      expect(lines.filter((line) => line.includes('client certificate'))).toEqual([
        expect.stringMatching(/ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\): set clientCert and clientKey/),
      ]);
      expect(lines.at(-1)).toMatch(/\(1 request, .*7 spooled to/);
      expect(await server.server.store.allResults()).toEqual([]);
    });

    it('turns reporting off with one line when a certificate file cannot be read, and the tests run', async () => {
      const server = await serve();
      const outcome = await run({
        cwd: own.passing,
        env: reporterEnv(server, { TESTRUN_CA_CERT: '/nonexistent/ca.pem' }),
      });
      expect(outcome.code).toBe(0);
      expect(testrunLines(outcome.stderr)).toEqual([
        'testrun: reporting is off: option ca (TESTRUN_CA_CERT) names /nonexistent/ca.pem, which cannot be read (ENOENT). Give the path of a PEM file.',
      ]);
      expect(server.server.requests).toEqual([]);
    });
  });
});
