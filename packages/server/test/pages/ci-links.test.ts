import { describe, expect, it } from 'vitest';
import { tagViews } from '../../src/pages/ci-links.js';

const links = (tags: string[]) => tagViews(tags).map(({ text, href }) => (href ? `${text} → ${href}` : text));

describe('tagViews: where CI tags lead', () => {
  it('links a GitHub run’s build to its page, and its commit and branch under the repository', () => {
    expect(
      links([
        'demo',
        'ci:github',
        'branch:feature/cart',
        'commit:abc123',
        'build:77',
        'build-url:https://github.com/acme/shop/actions/runs/77',
        'repo-url:https://github.com/acme/shop',
      ]),
    ).toEqual([
      'demo',
      'ci:github',
      'branch:feature/cart → https://github.com/acme/shop/tree/feature/cart',
      'commit:abc123 → https://github.com/acme/shop/commit/abc123',
      'build:77 → https://github.com/acme/shop/actions/runs/77',
      'github.com/acme/shop → https://github.com/acme/shop',
    ]);
  });

  it('knows GitLab’s and Bitbucket’s paths, by host or, self-hosted, by the CI service', () => {
    expect(
      links(['ci:gitlab', 'branch:main', 'commit:d1', 'repo-url:https://git.example.com/acme/shop']).slice(
        1,
        3,
      ),
    ).toEqual([
      'branch:main → https://git.example.com/acme/shop/-/tree/main',
      'commit:d1 → https://git.example.com/acme/shop/-/commit/d1',
    ]);
    expect(links(['ci:circleci', 'commit:b1', 'repo-url:https://bitbucket.org/acme/shop'])[1]).toBe(
      'commit:b1 → https://bitbucket.org/acme/shop/commits/b1',
    );
  });

  it('links nothing where CI did not say where, nor to a forge whose paths it does not know', () => {
    expect(links(['ci:jenkins', 'branch:main', 'commit:j1', 'build:12'])).toEqual([
      'ci:jenkins',
      'branch:main',
      'commit:j1',
      'build:12',
    ]);
    expect(links(['ci:jenkins', 'commit:j1', 'repo-url:https://git.example.com/acme/shop'])).toEqual([
      'ci:jenkins',
      'commit:j1',
      'git.example.com/acme/shop → https://git.example.com/acme/shop',
    ]);
    expect(links(['build-url:https://jenkins.example.com/job/1/'])).toEqual([
      'build → https://jenkins.example.com/job/1',
    ]);
  });

  it('makes no link of a URL tag that is not http(s), and shows it as the text it is', () => {
    expect(
      links([
        'build:1',
        'build-url:javascript:alert(1)',
        'repo-url:data:text/html,x',
        'commit:c',
        'ci:github',
      ]),
    ).toEqual([
      'build:1',
      'build-url:javascript:alert(1)',
      'repo-url:data:text/html,x',
      'commit:c',
      'ci:github',
    ]);
  });

  it('encodes what goes into a path', () => {
    expect(
      links(['commit:a b', 'branch:x/y?z', 'repo-url:https://github.com/acme/shop']).slice(0, 2),
    ).toEqual([
      'commit:a b → https://github.com/acme/shop/commit/a%20b',
      'branch:x/y?z → https://github.com/acme/shop/tree/x/y%3Fz',
    ]);
  });
});
