import { type ResolvedConfig, resolveConfig, type TestrunOptions } from '@testrun/core';
import type { Output } from './command.js';
import type { Flags } from './flags.js';

/**
 * The reporters' configuration, read the same way for commands: flags given here,
 * then TESTRUN_* variables, then defaults. Says why and returns undefined when the
 * command cannot talk to the service.
 */
export function resolveCliConfig(options: TestrunOptions, output: Output): ResolvedConfig | undefined {
  const resolution = resolveConfig({ options, env: process.env, rootDir: process.cwd() });
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
  ca: { type: 'string', value: '<pem>', option: 'ca' },
  'client-cert': { type: 'string', value: '<pem>', option: 'clientCert' },
  'client-key': { type: 'string', value: '<pem>', option: 'clientKey' },
} as const satisfies Flags;
