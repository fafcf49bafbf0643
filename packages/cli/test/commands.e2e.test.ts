import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { runCli } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

describe('testrun command line', () => {
  it('prints the usage with every command for --help and exits 0', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: testrun <command> \[options\]/);
    for (const command of ['serve', 'create-run', 'replay', 'upload'])
      expect(stdout).toContain(`  ${command} `);
  });

  it.each(['serve', 'create-run', 'replay', 'upload'])(
    'prints the usage of a command for "%s --help" and exits 0',
    async (command) => {
      const { code, stdout } = await runCli([command, '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: testrun ${command}`);
    },
  );

  it('exits 2 with an error and the usage on stderr for an unknown command', async () => {
    const { code, stdout, stderr } = await runCli(['deploy']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^testrun: unknown command "deploy"\n\nUsage: testrun <command>/);
  });

  it('exits 2 with the usage on stderr when no command is given', async () => {
    const { code, stderr } = await runCli([]);
    expect(code).toBe(2);
    expect(stderr).toContain('testrun: no command given');
  });

  it('exits 2 naming an unknown option', async () => {
    const { code, stderr } = await runCli(['serve', '--prot', '80']);
    expect(code).toBe(2);
    expect(stderr).toContain("testrun serve: Unknown option '--prot'");
    expect(stderr).toContain('Usage: testrun serve');
  });

  it('exits 2 with the flag a misspelt one most likely means, as reporter options get', async () => {
    const { code, stderr } = await runCli(['create-run', '--projct', 'web']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^testrun create-run: unknown option "--projct"; did you mean "--project"\?\n\nUsage: /,
    );
  });

  it('exits 1 with the reason when the server cannot start', async () => {
    const occupier = createNetServer();
    await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => occupier.close(() => resolve())));
    const { port } = occupier.address() as AddressInfo;

    const { code, stderr } = await runCli(['serve', '--memory', '--port', String(port)]);

    expect(code).toBe(1);
    expect(stderr).toMatch(/^testrun serve: .*EADDRINUSE/);
  });
});
