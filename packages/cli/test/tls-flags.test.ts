import {
  createReporter,
  hasOpenssl,
  makeResults,
  makeTestCertificates,
  readPem,
  runCli,
  type TestCertificates,
  useTestServers,
} from '@testrun/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';

const start = useTestServers();

describe.skipIf(!hasOpenssl())('the TLS flags of create-run and replay', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });

  const serveWithClientCertificates = () =>
    start({
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
    expect(made.stdout).toBe(`${server.server.store.runs()[0]!.id}\n`);

    const refused = await runCli(['create-run', '--framework', 'vitest', '--ca', certs.caCert], {
      env: envFor(server),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^testrun create-run: the run could not be created: .*set clientCert and clientKey/,
    );
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
    expect(server.server.store.allResults()).toHaveLength(4);
  });
});
