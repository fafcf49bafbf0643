import { type ResolvedConfig, resolveConfig, type TestrunOptions } from '@testrun/core';
import type { Output } from './command.js';

/**
 * The reporters' configuration, read the same way for commands: flags given here,
 * then TESTRUN_* variables, then defaults. Says why and returns undefined when the
 * command cannot talk to the service.
 */
export function resolveCliConfig(options: TestrunOptions, output: Output): ResolvedConfig | undefined {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const resolution = resolveConfig({ options: given, env: process.env, rootDir: process.cwd() });
  switch (resolution.state) {
    case 'enabled':
      output.redact(resolution.config.apiKey);
      return resolution.config;
    case 'off':
      output.error('TESTRUN_ENABLED turns reporting off; unset it to use this command.');
      return undefined;
    case 'no-key':
      output.error('TESTRUN_API_KEY is not set. Set it and TESTRUN_BASE_URL to reach the service.');
      return undefined;
    case 'invalid':
      for (const error of resolution.errors) output.error(error.message);
      return undefined;
  }
}

/** The TLS options as flags; each falls back to its environment variable, as in the reporters. */
export const TLS_FLAGS = {
  ca: { type: 'string' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
} as const;

/** The TLS flags' lines of a usage text whose descriptions start at `column`. */
export function tlsUsage(column: number): string {
  return [
    ['--ca <pem>', 'a private CA to trust (default: TESTRUN_CA_CERT)'],
    ['--client-cert <pem>', 'client certificate for mutual TLS (TESTRUN_CLIENT_CERT)'],
    ['--client-key <pem>', 'its private key (TESTRUN_CLIENT_KEY)'],
  ]
    .map(([flag, what]) => `  ${flag!.padEnd(column - 2)}${what}`)
    .join('\n');
}

export function tlsOptions(values: { ca?: string; 'client-cert'?: string; 'client-key'?: string }) {
  return { ca: values.ca, clientCert: values['client-cert'], clientKey: values['client-key'] };
}
