import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';

/** What the HTTP client hands to TLS: PEM text, never printed, logged or spooled. */
export interface TlsMaterial {
  /** Trusted CAs: Node's own, NODE_EXTRA_CA_CERTS's, and the `ca` option's. */
  ca?: string[];
  cert?: string;
  key?: string;
}

interface TlsOptions {
  ca: string | undefined;
  clientCert: string | undefined;
  clientKey: string | undefined;
}

/**
 * Reads the `ca`, `clientCert` and `clientKey` options (a PEM file's path, or for `ca`
 * the PEM text itself) and checks them before the run, so a bad file is one clear line
 * rather than a failed handshake per request. Messages name the option and the path,
 * never the contents.
 */
export function readTlsMaterial(
  options: TlsOptions,
  rootDir: string,
  env: NodeJS.ProcessEnv,
  errors: ConfigError[],
): TlsMaterial | undefined {
  const material: TlsMaterial = {};
  if (options.ca !== undefined) {
    const ca = readPem('ca', 'TESTRUN_CA_CERT', options.ca, rootDir, errors, { inline: true });
    if (ca !== undefined && isCertificate('ca', 'TESTRUN_CA_CERT', ca, errors)) {
      // A `ca` replaces Node's trust store for the connection: keep the public roots and
      // NODE_EXTRA_CA_CERTS trusted beside it.
      // node:tls only when a CA is named: a run without one does not load it (docs/performance.md).
      material.ca = [
        ...process.getBuiltinModule('node:tls').rootCertificates,
        ...extraCaCertificates(env),
        ca,
      ];
    }
  }
  if ((options.clientCert === undefined) !== (options.clientKey === undefined)) {
    const missing =
      options.clientCert === undefined
        ? 'clientCert (TESTRUN_CLIENT_CERT)'
        : 'clientKey (TESTRUN_CLIENT_KEY)';
    errors.push(
      new ConfigError(
        missing.split(' ')[0]!,
        `option ${missing} is required with the other half of the client certificate: give both clientCert and clientKey.`,
      ),
    );
    return material;
  }
  if (options.clientCert !== undefined && options.clientKey !== undefined) {
    const cert = readPem('clientCert', 'TESTRUN_CLIENT_CERT', options.clientCert, rootDir, errors);
    const key = readPem('clientKey', 'TESTRUN_CLIENT_KEY', options.clientKey, rootDir, errors);
    if (cert === undefined || key === undefined) return material;
    if (!isCertificate('clientCert', 'TESTRUN_CLIENT_CERT', cert, errors)) return material;
    if (!matchesKey(cert, key, options.clientKey, errors)) return material;
    material.cert = cert;
    material.key = key;
  }
  return material.ca || material.cert ? material : undefined;
}

function readPem(
  option: string,
  env: string,
  value: string,
  rootDir: string,
  errors: ConfigError[],
  { inline = false } = {},
): string | undefined {
  if (inline && value.includes('-----BEGIN')) return value;
  const file = path.resolve(rootDir, value);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    errors.push(
      new ConfigError(
        option,
        `option ${option} (${env}) names ${file}, which cannot be read (${code}). Give the path of a PEM file.`,
      ),
    );
    return undefined;
  }
}

function isCertificate(option: string, env: string, pem: string, errors: ConfigError[]): boolean {
  try {
    new (crypto().X509Certificate)(pem);
    return true;
  } catch {
    errors.push(
      new ConfigError(
        option,
        `option ${option} (${env}) is not a PEM certificate ("-----BEGIN CERTIFICATE-----").`,
      ),
    );
    return false;
  }
}

function matchesKey(cert: string, key: string, keyPath: string, errors: ConfigError[]): boolean {
  try {
    const { X509Certificate, createPrivateKey } = crypto();
    if (new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) return true;
    errors.push(
      new ConfigError(
        'clientKey',
        'option clientKey (TESTRUN_CLIENT_KEY) is not the key of the certificate in clientCert (TESTRUN_CLIENT_CERT).',
      ),
    );
  } catch {
    errors.push(
      new ConfigError(
        'clientKey',
        `option clientKey (TESTRUN_CLIENT_KEY) names ${path.basename(keyPath)}, which is not an unencrypted PEM private key.`,
      ),
    );
  }
  return false;
}

function extraCaCertificates(env: NodeJS.ProcessEnv): string[] {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [fs.readFileSync(file, 'utf8')];
  } catch {
    return []; // Node itself warns about an unreadable NODE_EXTRA_CA_CERTS.
  }
}

/** node:crypto, loaded only when a certificate is checked (random-uuid.ts says why). */
function crypto() {
  return process.getBuiltinModule('node:crypto');
}
