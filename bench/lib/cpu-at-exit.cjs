// Loaded with --require (node:test passes it on to the test files' processes): appends this
// process's CPU at its 'exit', all threads, and whether it is node:test's parent (which runs the
// reporters) or a test file's process, as a JSON line to BENCH_CPU_AT_EXIT (node-test-parent.mjs).
const fs = require('node:fs');

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const line = JSON.stringify({
    variant: process.env.BENCH_VARIANT,
    role: process.execArgv.includes('--test') ? 'parent' : 'child',
    cpuMs: (user + system) / 1000,
  });
  fs.appendFileSync(process.env.BENCH_CPU_AT_EXIT, `${line}\n`);
});
