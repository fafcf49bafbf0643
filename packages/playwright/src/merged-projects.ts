import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import type { FullConfig } from '@playwright/test/reporter';

/** The configured-project count of merged blob reports, and why the shards' configuration could not be read. */
export interface MergedProjectCount {
  count: number;
  problem?: string;
}

/**
 * How many projects the configuration the shards ran defines, for `projectLabel: 'auto'`,
 * so that a merged run names its results as the shards' own runs do. `merge-reports` hands
 * reporters only the projects the blobs hold, once per blob: a `--project` filter, or a
 * shard that ran one project's tests or none (its webServer failed), leaves configured
 * projects out. Each blob names the configuration file it ran, which is read here with
 * Playwright's own loader, as `playwright test` reads it.
 */
export async function mergedProjectCount(
  config: FullConfig,
  argv: readonly string[],
  cwd: string,
): Promise<MergedProjectCount> {
  const names = new Set(config.projects.map((project) => project.name)).size;
  // Several projects in the blobs: the configuration has several too, and results are labelled either way.
  if (names > 1) return { count: names };
  try {
    const configFiles = new Set<string | undefined>();
    for (const blob of blobsIn(blobDirectory(argv, cwd))) {
      const configFile = await configFileOf(blob);
      // The file is named relative to the shards' rootDir, which the merged config keeps (or `-c` sets).
      configFiles.add(configFile === undefined ? undefined : path.resolve(config.rootDir, configFile));
    }
    let count = names;
    for (const file of configFiles) {
      // Shards run without a configuration file have one project, Playwright's default.
      count = Math.max(count, file === undefined ? 1 : await configuredProjects(file, argv[1] ?? ''));
    }
    return { count };
  } catch (error) {
    return {
      count: Math.max(names, 1),
      problem:
        `merge-reports: could not count the projects of the configuration the shards ran ` +
        `(${String((error as Error).message).split('\n')[0]}), so results are labelled with their project only when the ` +
        'blobs hold several. Merge in a checkout of the code the shards ran, or set projectLabel.',
    };
  }
}

/** The folder of blobs: the argument of `playwright merge-reports [options] [dir]`, resolved as Playwright does. */
export function blobDirectory(argv: readonly string[], cwd: string): string {
  const args = argv.slice(2);
  const command = args.indexOf('merge-reports');
  if (command === -1) throw new Error('no merge-reports command on the command line');
  for (let at = command + 1; at < args.length; at += 1) {
    const arg = args[at]!;
    // The options of merge-reports that take a value in the next argument.
    if (arg === '-c' || arg === '--config' || arg === '--reporter') at += 1;
    else if (!arg.startsWith('-')) return path.resolve(cwd, arg);
  }
  return path.resolve(cwd);
}

/** The blobs Playwright merges from `dir`: its .zip files. */
function blobsIn(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.zip'))
    .sort()
    .map((file) => path.join(dir, file));
}

/** The configuration file a blob was written by (its onConfigure event), relative to its rootDir; undefined when it ran without one. */
async function configFileOf(blob: string): Promise<string | undefined> {
  // Loaded here, not with the reporter: only merge-reports reads blobs.
  const { default: yauzl } = await import('yauzl');
  const zip = await yauzl.openPromise(blob, { lazyEntries: true });
  try {
    for await (const entry of zip.eachEntry()) {
      if (!entry.fileName.endsWith('.jsonl')) continue;
      const stream = await zip.openReadStreamPromise(entry);
      try {
        // The configuration is the second event of the report: only the first lines are read.
        for await (const line of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
          const event = JSON.parse(line) as {
            method?: string;
            params?: { config?: { configFile?: unknown } };
          };
          if (event.method !== 'onConfigure') continue;
          const configFile = event.params?.config?.configFile;
          return typeof configFile === 'string' && configFile !== '' ? configFile : undefined;
        }
      } finally {
        stream.destroy();
      }
    }
  } finally {
    zip.close();
  }
  throw new Error(`${blob} holds no Playwright report`);
}

interface PlaywrightConfigLoader {
  loadConfigFromFile(file: string): Promise<{ projects: readonly unknown[] }>;
}

/** How many projects `file` defines, as the Playwright running this merge (argv[1], its CLI) loads it. */
async function configuredProjects(file: string, cli: string): Promise<number> {
  if (!fs.existsSync(file)) throw new Error(`${file} is not there`);
  const requirePlaywright = createRequire(fs.realpathSync(cli));
  const { configLoader } = requirePlaywright('playwright/lib/common') as {
    configLoader: PlaywrightConfigLoader;
  };
  const loaded = await configLoader.loadConfigFromFile(file);
  return loaded.projects.length;
}
