import {
  createReporterOver,
  hasOpenssl,
  makeResults,
  makeTestCertificates,
  readPem,
  startTestServer,
  TRANSPORTS,
} from '@testrun/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/options/config.js';

let certs: ReturnType<typeof makeTestCertificates>;
beforeAll(() => {
  if (hasOpenssl()) certs = makeTestCertificates();
});

describe.skipIf(!hasOpenssl()).each(TRANSPORTS)('a service behind a private CA, over $name', (transport) => {
  const reporterOver = (url: string, apiKey: string, options = {}) =>
    createReporterOver(transport, url, apiKey, options);

  const serve = (server = certs.server, clientCa?: string) =>
    startTestServer({ https: { cert: readPem(server.cert), key: readPem(server.key), clientCa } });

  it('delivers everything when the ca option names the CA', async () => {
    const { server, url, apiKey } = await serve();
    expect(url).toMatch(/^https:\/\//);
    const { reporter } = await reporterOver(url, apiKey, { ca: certs.caCert });
    reporter.startRun();
    reporter.addResults(makeResults(5));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 5, spooled: 0 });
    expect(await server.store.allResults()).toHaveLength(5);
  });

  it('takes the CA as PEM text too', async () => {
    const { url, apiKey } = await serve();
    const { reporter } = await reporterOver(url, apiKey, { ca: readPem(certs.caCert) });
    reporter.startRun();
    reporter.addResults(makeResults(2));
    expect(await reporter.endRun()).toMatchObject({ delivered: 2 });
  });

  it.each([
    [
      'not trusted',
      () => certs.server,
      {},
      /certificate is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*NODE_EXTRA_CA_CERTS=\/path\/ca\.pem.*ca option/,
    ],
    ['expired', () => certs.expiredServer, { ca: 'CA' }, /outside its validity dates \(CERT_HAS_EXPIRED\)/],
    [
      'for another host',
      () => certs.otherHostServer,
      { ca: 'CA' },
      /not for this host name \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    ],
  ])(
    'fails at once without retrying when the certificate is %s, spools, and says what to do in one line',
    async (_what, serverCert, options, message) => {
      const { server, url, apiKey } = await serve(serverCert());
      const ca = 'ca' in options ? { ca: certs.caCert } : {};
      const { reporter, lines } = await reporterOver(url, apiKey, { ...ca, batchSize: 2, maxRetries: 5 });
      reporter.startRun();
      reporter.addResults(makeResults(6));
      const summary = await reporter.endRun();
      expect(summary).toMatchObject({ delivered: 0, spooled: 6, runId: undefined });
      // One handshake: create-run fails and nothing else is tried.
      expect(summary!.requests).toBe(1);
      expect(server.requests).toEqual([]);
      const problems = lines.filter((line) => !line.includes('results → run'));
      expect(problems).toEqual([expect.stringMatching(message)]);
      expect(lines.at(-1)).toMatch(/6 spooled to .*npx @testrun\/cli replay/);
    },
  );

  describe('that requires a client certificate', () => {
    it('delivers with the right client certificate', async () => {
      const { server, url, apiKey } = await serve(certs.server, readPem(certs.caCert));
      const { reporter } = await reporterOver(url, apiKey, {
        ca: certs.caCert,
        clientCert: certs.client.cert,
        clientKey: certs.client.key,
      });
      reporter.startRun();
      reporter.addResults(makeResults(3));
      expect(await reporter.endRun()).toMatchObject({ delivered: 3, spooled: 0 });
      expect(await server.store.allResults()).toHaveLength(3);
    });

    it('refuses a run without one: a permanent error, not retried, results spooled', async () => {
      const { server, url, apiKey } = await serve(certs.server, readPem(certs.caCert));
      const { reporter, lines } = await reporterOver(url, apiKey, { ca: certs.caCert, maxRetries: 5 });
      reporter.startRun();
      reporter.addResults(makeResults(3));
      const summary = await reporter.endRun();
      expect(summary).toMatchObject({ delivered: 0, spooled: 3 });
      expect(summary!.requests).toBe(1);
      expect(await server.store.allResults()).toEqual([]);
      expect(lines.join('\n')).toMatch(
        /refused the TLS handshake over the client certificate \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\): set clientCert and clientKey/,
      );
    });

    it('spools a run whose certificate comes from a CA it does not trust: a Node server resets such a connection, which looks like any network failure', async () => {
      const { server, url, apiKey } = await serve(certs.server, readPem(certs.caCert));
      const { reporter, lines } = await reporterOver(url, apiKey, {
        ca: certs.caCert,
        clientCert: certs.strangerClient.cert,
        clientKey: certs.strangerClient.key,
        maxRetries: 1,
      });
      reporter.startRun();
      reporter.addResults(makeResults(3));
      const summary = await reporter.endRun();
      expect(summary).toMatchObject({ delivered: 0, spooled: 3 });
      expect(await server.store.allResults()).toEqual([]);
      expect(lines.join('\n')).toMatch(/ECONNRESET|other side closed/);
    });
  });
});

describe.skipIf(!hasOpenssl())('TLS options that name unusable files', () => {
  const problemsWith = (options: object) => {
    const resolution = resolveConfig({
      options: { apiKey: 'k-123456', baseUrl: 'https://svc.example.com', ...options },
      env: {},
      rootDir: process.cwd(),
    });
    return resolution.state === 'invalid' ? resolution.errors.map((error) => error.message) : [];
  };

  it('names the option and the path, never the contents', () => {
    expect(problemsWith({ ca: '/nonexistent/ca.pem' })).toEqual([
      'option ca (TESTRUN_CA_CERT) names /nonexistent/ca.pem, which cannot be read (ENOENT). Give the path of a PEM file.',
    ]);
    expect(problemsWith({ ca: certs.client.key })).toEqual([
      'option ca (TESTRUN_CA_CERT) is not a PEM certificate ("-----BEGIN CERTIFICATE-----").',
    ]);
    const mismatched = problemsWith({ clientCert: certs.client.cert, clientKey: certs.strangerClient.key });
    expect(mismatched).toEqual([
      'option clientKey (TESTRUN_CLIENT_KEY) is not the key of the certificate in clientCert (TESTRUN_CLIENT_CERT).',
    ]);
    expect(problemsWith({ clientCert: certs.client.cert })).toEqual([
      'option clientKey (TESTRUN_CLIENT_KEY) is required with the other half of the client certificate: give both clientCert and clientKey.',
    ]);
    const keyText = readPem(certs.client.key);
    for (const line of [...mismatched, ...problemsWith({ ca: certs.client.key })]) {
      expect(line).not.toContain(keyText.split('\n')[1]!);
    }
  });
});
