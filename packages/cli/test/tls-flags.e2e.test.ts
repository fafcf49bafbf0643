import path from 'node:path';
import {
  createReporter,
  fixtures,
  hasOpenssl,
  makeResults,
  makeTestCertificates,
  readPem,
  runCli,
  startTestServer,
  type TestCertificates,
  tempDir,
} from '@testrun/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';

describe.skipIf(!hasOpenssl())('the TLS flags of create-run and replay', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });

  const serveWithClientCertificates = () =>
    startTestServer({
      https: {
        cert: readPem(certs.server.cert),
        key: readPem(certs.server.key),
        clientCa: readPem(certs.caCert),
      },
    });
  const envFor = (server: { url: string; apiKey: string }) => ({
    PATH: process.env.PATH,
    TESTRUN_API_KEY: server.apiKey,
    TESTRUN_BASE_URL: server.url,
  });
  const tlsFlags = () => [
    '--ca',
    certs.caCert,
    '--client-cert',
    certs.client.cert,
    '--client-key',
    certs.client.key,
  ];

  it('create-run reaches a service with a private CA and client certificates through --ca, --client-cert and --client-key', async () => {
    const server = await serveWithClientCertificates();
    const made = await runCli(['create-run', '--framework', 'vitest', ...tlsFlags()], {
      env: envFor(server),
    });
    expect(made.stderr).toBe('');
    expect(made.stdout).toBe(
      `${(await server.server.store.runs())[0]!.id};extensions=failure-details,complete-run,read-runs,attachments,quarantine;attachment-limits=104857600/1073741824\n`,
    );

    const refused = await runCli(['create-run', '--framework', 'vitest', '--ca', certs.caCert], {
      env: envFor(server),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^testrun create-run: the run could not be created: .*set clientCert and clientKey/,
    );
  });

  it('upload takes the same flags, and exits 1 naming the TLS failure without them', async () => {
    const server = await serveWithClientCertificates();
    const report = path.join(fixtures.junit, 'pytest.xml');
    const sent = await runCli(['upload', report, ...tlsFlags()], { env: envFor(server) });
    expect(sent.code).toBe(0);
    expect(sent.stderr).toMatch(/^testrun: 12 results → run /m);
    const stored = (await server.server.store.allResults()).length;
    expect(stored).toBeGreaterThan(0);

    const refused = await runCli(['upload', report], {
      env: { ...envFor(server), TESTRUN_SPOOL_DIR: tempDir('testrun-spool-') },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/certificate is not trusted \(\w+\)/);
    expect(refused.stderr).toContain('the TLS connection failed (see above): the results are spooled');
    expect(await server.server.store.allResults()).toHaveLength(stored);
  });

  it('replay sends a spool to such a service with the same flags', async () => {
    const server = await serveWithClientCertificates();
    const { reporter, spoolDir } = createReporter(server.url, server.apiKey, { ca: certs.caCert });
    reporter.startRun();
    reporter.addResults(makeResults(4));
    expect(await reporter.endRun()).toMatchObject({ spooled: 4 });

    const replayed = await runCli(['replay', '--dir', spoolDir, ...tlsFlags()], { env: envFor(server) });
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(await server.server.store.allResults()).toHaveLength(4);
  });
});
