// Where a run's CI tags lead. Core adds `ci:`, `branch:`, `commit:` and `build:` tags, and,
// where the provider says them, `build-url:` (the build's page) and `repo-url:` (the
// repository's page): the build tag links to the first, the commit and branch tags to pages
// under the second for the forges whose URL scheme is known. Tags are whatever a client sent,
// so only http(s) URLs become links.

/** A tag as the pages show it: its text, and where it leads when CI said. */
export interface TagView {
  tag: string;
  text: string;
  href?: string;
}

type Forge = 'github' | 'gitlab' | 'bitbucket';

const FORGE_HOSTS: Record<string, Forge> = {
  'github.com': 'github',
  'gitlab.com': 'gitlab',
  'bitbucket.org': 'bitbucket',
};

/** Where a commit and a branch are on each forge, under the repository's page. */
const FORGE_PATHS: Record<Forge, { commit: string; branch: string }> = {
  github: { commit: 'commit', branch: 'tree' },
  gitlab: { commit: '-/commit', branch: '-/tree' },
  bitbucket: { commit: 'commits', branch: 'branch' },
};

/** The run's tags in order, the commit, branch and build linked where CI said where; the URL tags fold into those links. */
export function tagViews(tags: readonly string[]): TagView[] {
  const tagValue = (prefix: string) => tags.find((tag) => tag.startsWith(prefix))?.slice(prefix.length);
  const buildUrl = webUrl(tagValue('build-url:'));
  const repoUrl = webUrl(tagValue('repo-url:'));
  const forge = repoUrl === undefined ? undefined : forgeOf(repoUrl, tagValue('ci:'));
  const hasBuild = tags.some((tag) => tag.startsWith('build:'));
  const views: TagView[] = [];
  for (const tag of tags) {
    if (tag.startsWith('build-url:') && buildUrl !== undefined) {
      // Shown as the build tag's link; without a build tag, as a link of its own.
      if (!hasBuild) views.push({ tag, text: 'build', href: buildUrl });
    } else if (tag.startsWith('repo-url:') && repoUrl !== undefined) {
      views.push({ tag, text: repoUrl.replace(/^https?:\/\//, ''), href: repoUrl });
    } else if (tag.startsWith('build:') && buildUrl !== undefined) {
      views.push({ tag, text: tag, href: buildUrl });
    } else if (tag.startsWith('commit:') && repoUrl !== undefined && forge !== undefined) {
      views.push({
        tag,
        text: tag,
        href: `${repoUrl}/${FORGE_PATHS[forge].commit}/${encodeURIComponent(tag.slice(7))}`,
      });
    } else if (tag.startsWith('branch:') && repoUrl !== undefined && forge !== undefined) {
      views.push({ tag, text: tag, href: `${repoUrl}/${FORGE_PATHS[forge].branch}/${pathOf(tag.slice(7))}` });
    } else {
      views.push({ tag, text: tag });
    }
  }
  return views;
}

/** The forge by the repository's host, else by the CI service (GitHub Enterprise, a self-hosted GitLab). */
function forgeOf(repoUrl: string, service: string | undefined): Forge | undefined {
  const byHost = FORGE_HOSTS[new URL(repoUrl).hostname];
  if (byHost) return byHost;
  return service === 'github' || service === 'gitlab' || service === 'bitbucket' ? service : undefined;
}

/** An http(s) URL without a trailing slash; anything else is no link. */
function webUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return url.toString().replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

/** A branch name as path segments: `feature/x` stays two segments, each encoded. */
function pathOf(branch: string): string {
  return branch.split('/').map(encodeURIComponent).join('/');
}
