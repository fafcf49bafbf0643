import { spawn } from 'node:child_process';

/**
 * Runs `node <args>` in a fresh process (stderr passed through) and resolves with its
 * stdout; rejects, naming `what`, when it exits non-zero.
 */
export function runNodeChild(args, env, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${what} exited ${code}`))));
  });
}

/** The JSON a bench child prints as its last line. */
export function lastJsonLine(stdout) {
  return JSON.parse(stdout.trim().split('\n').pop());
}
