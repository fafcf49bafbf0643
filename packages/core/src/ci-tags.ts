export interface Shard {
  index: number;
  count: number;
}

/**
 * Tags that say where a run came from. Provider detection is env-ci's (semantic-release's
 * library, 30+ providers, kept current by its users) rather than a table of our own.
 * Outside a known provider only the shard tag is added: a developer's machine is no CI.
 * Async because env-ci is loaded on first use: it costs ~70 ms to import, paid while
 * the tests are collected rather than before the framework starts.
 */
export async function ciTags(env: NodeJS.ProcessEnv, cwd: string, shard?: Shard): Promise<string[]> {
  const tags: string[] = [];
  const ci = await detect(env, cwd);
  if (ci) {
    tags.push(`ci:${ci.service}`);
    if (ci.branch) tags.push(`branch:${ci.branch}`);
    if (ci.commit) tags.push(`commit:${ci.commit}`);
    if (ci.build) tags.push(`build:${ci.build}`);
  }
  if (shard && shard.count > 1) tags.push(`shard:${shard.index}/${shard.count}`);
  return tags;
}

interface CiInfo {
  service: string;
  branch?: string;
  commit?: string;
  build?: string;
}

async function detect(env: NodeJS.ProcessEnv, cwd: string): Promise<CiInfo | undefined> {
  try {
    const { default: envCi } = await import('env-ci');
    const found = envCi({ env, cwd }) as {
      isCi: boolean;
      service?: string;
      branch?: string;
      prBranch?: string;
      commit?: string;
      build?: string | number;
    };
    if (!found.isCi || !found.service || found.service === 'git') return undefined;
    return {
      // env-ci names some services in camelCase (azurePipelines); tags read better in kebab-case.
      service: found.service.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
      branch: found.prBranch || found.branch || undefined,
      commit: found.commit || undefined,
      build: found.build === undefined || found.build === '' ? undefined : String(found.build),
    };
  } catch {
    return undefined;
  }
}
