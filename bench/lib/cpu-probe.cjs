// Preloaded (`NODE_OPTIONS=--require`) into a framework's CLI by bench/fixed-cost.mjs: writes
// the process's own CPU time (user + system, all its threads) to BENCH_CPU_FILE as it exits.
// The variable is removed at once, so the workers the framework starts load this and do nothing.
const file = process.env.BENCH_CPU_FILE;
delete process.env.BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    require('node:fs').writeFileSync(file, String((user + system) / 1000));
  });
}
