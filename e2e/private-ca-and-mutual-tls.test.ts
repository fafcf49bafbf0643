import {
  frameworksHere,
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

// "Private CA and mutual TLS" (README), through real framework processes against a real
// HTTPS server whose certificates are made for this test. What core does with a CA, a client
// certificate and their failures is proven over both transports in
// packages/core/test/http/tls.test.ts; here, under every framework, what only its process
// shows: NODE_EXTRA_CA_CERTS read by Node in it, and the TESTRUN_* variables read there. The
// failures' lines through a real process, under Vitest and Mocha (its CommonJS entry).

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

  describe.each(frameworksHere())('$name', ({ name, run, fixtures: own }) => {
    // How a TLS failure or an unreadable certificate file is said is core's (packages/core/test/http/tls.test.ts, every
    // case); in a real runner's process, once, under Mocha (its CommonJS entry) in pnpm test:compat.
    const failuresToo = name === 'mocha';

    it('delivers every result when NODE_EXTRA_CA_CERTS names the CA', async () => {
      const server = await serve();
      const outcome = await run({
        cwd: own.passing,
        env: reporterEnv(server, { NODE_EXTRA_CA_CERTS: certs.caCert }),
      });
      expect(outcome.code).toBe(0);
      expect(identities(await server.server.store.allResults())).toEqual(identities(PASSING_RESULTS));
      // The local server links the run's page, so the summary shows it.
      expect(testrunLines(outcome.stderr).at(-1)).toMatch(/ https:\/\/127\.0\.0\.1:\d+\/runs\//);
    });

    if (failuresToo)
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

    it('delivers with a client certificate the service requires (TESTRUN_CA_CERT, TESTRUN_CLIENT_CERT, TESTRUN_CLIENT_KEY)', async () => {
      const server = await serve(true);
      const env = reporterEnv(server, {
        TESTRUN_CA_CERT: certs.caCert,
        TESTRUN_CLIENT_CERT: certs.client.cert,
        TESTRUN_CLIENT_KEY: certs.client.key,
      });
      const outcome = await run({ cwd: own.passing, env });
      expect(outcome.code).toBe(0);
      expect(identities(await server.server.store.allResults())).toEqual(identities(PASSING_RESULTS));
      expect(testrunLines(outcome.stderr).at(-1)).toMatch(/ https:\/\/127\.0\.0\.1:\d+\/runs\//);
      expect(outcome.stdout + outcome.stderr).not.toContain(readPem(certs.client.key).split('\n')[1]);
    });

    if (failuresToo)
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

    if (failuresToo)
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
