import { ConfigError } from '../errors.js';

// Checks of where requests go, and how: the service's base URL and the proxy variables.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The base URL, checked and without a trailing slash; undefined (and an error pushed) when unusable. */
export function checkBaseUrl(
  value: string | undefined,
  allowInsecureHttp: boolean,
  errors: ConfigError[],
): string | undefined {
  const fail = (problem: string) => {
    errors.push(new ConfigError('baseUrl', `option baseUrl (TESTRUN_BASE_URL) ${problem}`));
    return undefined;
  };
  if (value === undefined) {
    return fail('is required when an API key is set, e.g. https://testrun.example.com.');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(
      `must be an absolute URL such as https://testrun.example.com, got ${JSON.stringify(withoutCredentials(value))}.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return fail(`must use https://, got ${JSON.stringify(url.protocol)}.`);
  }
  // Credentials in the URL would be printed in every line and written to the spool, and
  // cannot work: the Authorization header carries the API key.
  if (url.username || url.password) {
    return fail(
      `must not contain credentials (user:password@): the API key goes in TESTRUN_API_KEY, got ${JSON.stringify(withoutCredentials(value))}.`,
    );
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    return fail(
      `must use https:// so the API key is not sent in clear text (plain http is allowed for localhost only). Set allowInsecureHttp: true to override.`,
    );
  }
  if (url.search || url.hash) return fail('must not have a query or fragment.');
  return url.href.replace(/\/+$/, '');
}

export function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** A proxy variable undici cannot parse would fail every request; say so before the run. */
export function checkProxyVariables(env: NodeJS.ProcessEnv, errors: ConfigError[]): void {
  for (const name of PROXY_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    let protocol: string | undefined;
    try {
      protocol = new URL(value).protocol;
    } catch {}
    if (protocol !== 'http:' && protocol !== 'https:') {
      errors.push(
        new ConfigError(
          name,
          `${name} must be a proxy URL such as http://proxy.example:3128, got ${JSON.stringify(withoutCredentials(value))}.`,
        ),
      );
    }
  }
}

/** `user:secret@host` → `***@host`, with or without a scheme. */
function withoutCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, '$1***@');
}
