/**
 * Why this Playwright process is an interactive session rather than a test run, or
 * undefined for a plain `playwright test`. Such sessions run tests again and again, so,
 * like watch mode, they are reported only with `watch: true`. Playwright tells reporters
 * none of this, so it is read from the command line and the environment it sets.
 */
export function interactiveMode(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): 'ui' | 'debug' | 'test-server' | 'watch' | undefined {
  // argv: node, the playwright script, then the command and its options; after `--` come
  // the user's own arguments, which are none of Playwright's business.
  const end = argv.indexOf('--', 2);
  const args = argv.slice(2, end === -1 ? undefined : end);
  const command = args.find((arg) => !arg.startsWith('-'));
  // The server the VS Code extension runs tests through.
  if (command === 'test-server') return 'test-server';
  if (args.some((arg) => isOption(arg, '--ui') || isOption(arg, '--ui-host') || isOption(arg, '--ui-port'))) {
    return 'ui';
  }
  if (args.some((arg) => isOption(arg, '--debug'))) return 'debug';
  // `--debug` is a shortcut for PWDEBUG=1, which users also set themselves.
  if (env.PWDEBUG && env.PWDEBUG !== '0') return 'debug';
  // Playwright's experimental watch mode.
  if (env.PWTEST_WATCH) return 'watch';
  return undefined;
}

function isOption(arg: string, name: string): boolean {
  return arg === name || arg.startsWith(`${name}=`);
}
