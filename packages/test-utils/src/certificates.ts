import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** PEM files made for one test file: a private CA and what it signed, plus an outsider. */
export interface TestCertificates {
  dir: string;
  /** The private CA (cert only: what NODE_EXTRA_CA_CERTS or the `ca` option name). */
  caCert: string;
  /** Signed by the CA for localhost and 127.0.0.1. */
  server: { cert: string; key: string };
  /** Signed by the CA for localhost and 127.0.0.1, but already expired. */
  expiredServer: { cert: string; key: string };
  /** Signed by the CA for another host name only. */
  otherHostServer: { cert: string; key: string };
  /** A client certificate the CA signed, for mutual TLS. */
  client: { cert: string; key: string };
  /** A client certificate from a CA nobody trusts. */
  strangerClient: { cert: string; key: string };
}

/** Paths of the PEM files; `read(path)` gives the text. */
export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-tls-'));
  const file = (name: string) => path.join(dir, name);
  const ca = makeCa(dir, 'ca', 'testrun test CA');
  const stranger = makeCa(dir, 'stranger-ca', 'nobody trusts this CA');
  const sign = (name: string, issuer: typeof ca, names: string, days: number) => {
    openssl([
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.csr`),
      '-subj',
      `/CN=${name}`,
    ]);
    fs.writeFileSync(file(`${name}.ext`), `subjectAltName=${names}\n`);
    openssl([
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      issuer.cert,
      '-CAkey',
      issuer.key,
      '-CAcreateserial',
      '-out',
      file(`${name}.pem`),
      '-days',
      String(days),
      '-extfile',
      file(`${name}.ext`),
    ]);
    return { cert: file(`${name}.pem`), key: file(`${name}.key`) };
  };
  const local = 'DNS:localhost,IP:127.0.0.1';
  return {
    dir,
    caCert: ca.cert,
    server: sign('server', ca, local, 30),
    // -1 day: valid until yesterday.
    expiredServer: sign('expired-server', ca, local, -1),
    otherHostServer: sign('other-host-server', ca, 'DNS:service.example.com', 30),
    client: sign('client', ca, 'DNS:ci-runner', 30),
    strangerClient: sign('stranger-client', stranger, 'DNS:ci-runner', 30),
  };
}

/** Whether the openssl command is there to make certificates with. */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function readPem(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

function makeCa(dir: string, name: string, commonName: string) {
  const cert = path.join(dir, `${name}.pem`);
  const key = path.join(dir, `${name}.key`);
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '30',
    '-subj',
    `/CN=${commonName}`,
  ]);
  return { cert, key };
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'ignore' });
}
