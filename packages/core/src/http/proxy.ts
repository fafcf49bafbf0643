/**
 * The proxy a request to `url` goes through, from the environment as undici's
 * EnvHttpProxyAgent reads it (the rules were undici's when it made every request, so they
 * stay exactly so): HTTPS_PROXY for https (else HTTP_PROXY), HTTP_PROXY for http, upper
 * case first, unless NO_PROXY lists the host (`*`, a host, `.domain` or `*.domain` for its
 * subdomains, each with an optional `:port`). Undefined: connect directly.
 */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): string | undefined {
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const proxy = url.protocol === 'https:' ? (env.HTTPS_PROXY ?? env.https_proxy ?? httpProxy) : httpProxy;
  if (!proxy) return undefined;
  return bypassesProxy(url, env.NO_PROXY ?? env.no_proxy ?? '') ? undefined : proxy;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function bypassesProxy(url: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  // The host with IPv6 brackets kept, as undici compares it.
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const withPort = /^(.+):(\d+)$/.exec(entry);
    const entryHost = (withPort ? withPort[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = withPort ? Number.parseInt(withPort[2]!, 10) : 0;
    if (entryPort && entryPort !== port) continue;
    if (host === entryHost || host.endsWith(`.${entryHost}`)) return true;
  }
  return false;
}
