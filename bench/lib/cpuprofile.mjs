// Reads a V8 .cpuprofile (node --cpu-prof) and sums self time per function and per
// package, so the hottest code is visible without DevTools.
import fs from 'node:fs';

function where(url) {
  if (!url) return '(native / V8)';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm) return pnpm[1];
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (modules) return modules[1];
  const ours = /packages\/([^/]+)\/dist\//.exec(url);
  if (ours) return `@testrun/${ours[1]}`;
  if (url.startsWith('node:')) return 'node (internal)';
  if (url.includes('/bench/')) return 'bench script';
  return url.replace(/^file:\/\//, '');
}

function shortFile(url) {
  if (!url) return '';
  const ours = /packages\/([^/]+)\/dist\/(.+)$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/(.+)$/.exec(url);
  if (pnpm) return pnpm[1];
  return url.replace(/^file:\/\/.*\/bench\//, 'bench/');
}

/** { totalMs, functions: [{ name, file, line, selfMs, pct }], packages: [{ name, selfMs, pct }] } */
export function summarizeProfile(file, { top = 15 } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const functions = new Map();
  const packages = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') continue;
    total += us;
    const name = callFrame.functionName || '(anonymous)';
    const key = `${name}\u0000${callFrame.url}\u0000${callFrame.lineNumber}`;
    const entry = functions.get(key) ?? {
      name,
      file: shortFile(callFrame.url),
      line: callFrame.lineNumber + 1,
      us: 0,
    };
    entry.us += us;
    functions.set(key, entry);
    const pkg = ['(garbage collector)', '(program)'].includes(name) ? name : where(callFrame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const round = (us) => Math.round(us / 100) / 10;
  return {
    totalMs: round(total),
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map(({ name, file, line, us }) => ({ name, file, line, selfMs: round(us), pct: us / total })),
    packages: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfMs: round(us), pct: us / total })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = summarizeProfile(process.argv[2], { top: Number(process.argv[3] ?? 25) });
  console.log(`total sampled (non-idle): ${summary.totalMs} ms`);
  console.table(summary.packages);
  console.table(summary.functions);
}

/**
 * Inclusive time (self + callees) of each [functionName, fileSuffix]; a function that
 * calls itself is counted once per stack.
 */
export function inclusiveTimes(file, targets) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i];
    if (byId.get(id).callFrame.functionName === '(idle)') continue;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    total += profile.timeDeltas[i] ?? 0;
  }
  const matches = (node, [name, suffix]) =>
    node.callFrame.functionName === name && node.callFrame.url.endsWith(suffix);
  const sums = targets.map(() => 0);
  for (const [id, us] of selfUs) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      targets.forEach((target, index) => {
        if (!seen.has(index) && matches(byId.get(at), target)) {
          seen.add(index);
          sums[index] += us;
        }
      });
    }
  }
  return targets.map(([name, suffix], index) => ({
    function: `${name} (${suffix})`,
    inclusiveMs: Math.round(sums[index] / 100) / 10,
    pct: sums[index] / total,
  }));
}
