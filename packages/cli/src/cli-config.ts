import { type ResolvedConfig, resolveConfig, type TestrunOptions } from '@testrun/core';

/**
 * The reporters' configuration, read the same way for commands: flags given here,
 * then TESTRUN_* variables, then defaults. Prints why and returns undefined when the
 * command cannot talk to the service.
 */
export function resolveCliConfig(
  options: TestrunOptions,
  baseUrlRequired = true,
): ResolvedConfig | undefined {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const resolution = resolveConfig({
    options: given,
    env: process.env,
    rootDir: process.cwd(),
    baseUrlRequired,
  });
  switch (resolution.state) {
    case 'enabled':
      return resolution.config;
    case 'off':
      process.stderr.write('testrun: TESTRUN_ENABLED turns reporting off; unset it to use this command.\n');
      return undefined;
    case 'no-key':
      process.stderr.write(
        'testrun: TESTRUN_API_KEY is not set. Set it and TESTRUN_BASE_URL to reach the service.\n',
      );
      return undefined;
    case 'invalid':
      for (const error of resolution.errors) process.stderr.write(`testrun: ${error.message}\n`);
      return undefined;
  }
}
