import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { belowForeignRoot, findRepositoryRoot, ReportPaths } from '../../src/reports/report-paths.js';

describe('a path written in a report', () => {
  const paths = new ReportPaths('/home/me/shop/api', '/home/me/shop');

  it('is taken from the current directory when relative, with backslashes as separators', () => {
    expect(paths.local('tests/test_cart.py')).toBe('/home/me/shop/api/tests/test_cart.py');
    expect(paths.local('tests\\test_cart.py')).toBe('/home/me/shop/api/tests/test_cart.py');
    expect(paths.local('./spec/models/cart_spec.rb')).toBe('/home/me/shop/api/spec/models/cart_spec.rb');
  });

  it('is kept when absolute and inside this checkout', () => {
    expect(paths.local('/home/me/shop/api/tests/CartTest.php')).toBe('/home/me/shop/api/tests/CartTest.php');
    expect(paths.local('/home/me/shop/web/cart.test.js')).toBe('/home/me/shop/web/cart.test.js');
  });

  it.each([
    [
      'a Windows path, below the folder named like the repository',
      'C:\\ci\\shop\\tests\\DataTest.php',
      'tests/DataTest.php',
    ],
    [
      'the last folder named like the repository',
      '/home/runner/work/shop/shop/api/tests/x.py',
      'api/tests/x.py',
    ],
    ['a GitHub Actions checkout of another name', '/home/runner/work/store/store/tests/x.py', 'tests/x.py'],
    [
      'a GitHub Actions checkout on Windows',
      'D:\\a\\store\\store\\tests\\CartTests.cs',
      'tests/CartTests.cs',
    ],
    ['an Azure Pipelines checkout', 'D:\\a\\1\\s\\tests\\CartTests.cs', 'tests/CartTests.cs'],
    ['a Jenkins workspace', '/var/lib/jenkins/workspace/store-main/tests/x.py', 'tests/x.py'],
    ['a container working directory', '/app/tests/test_cart.py', 'tests/test_cart.py'],
    [
      'a path below no known folder, below its root',
      'E:\\builds\\7f3c\\tests\\x.py',
      'builds/7f3c/tests/x.py',
    ],
    ['a UNC path below no known folder', '\\\\server\\share\\tests\\x.py', 'tests/x.py'],
  ])('from another machine is taken from the checkout root: %s', (_, written, relative) => {
    expect(paths.local(written)).toBe(path.join('/home/me/shop', relative));
  });

  it('that is a name (a classname) becomes relative the same way, with / separators', () => {
    expect(paths.name('C:\\ci\\shop\\tests\\Cart.phpt')).toBe('tests/Cart.phpt');
    expect(paths.name('tests\\Cart.phpt')).toBe('tests/Cart.phpt');
    expect(paths.name('tests/Cart.phpt')).toBe('tests/Cart.phpt');
  });

  it('does not take an ordinary folder named like a container root for one', () => {
    expect(belowForeignRoot('/srv/ci/src/app/tests/x.py', 'elsewhere')).toBe('srv/ci/src/app/tests/x.py');
  });
});

describe("the checkout's root", () => {
  it('is the nearest folder holding .git, else the current directory', () => {
    const top = tempDir('testrun-paths-');
    fs.mkdirSync(path.join(top, 'shop', '.git'), { recursive: true });
    fs.mkdirSync(path.join(top, 'shop', 'api', 'tests'), { recursive: true });
    fs.mkdirSync(path.join(top, 'loose'));
    expect(findRepositoryRoot(path.join(top, 'shop', 'api', 'tests'))).toBe(path.join(top, 'shop'));
    // A folder outside any checkout (the temporary folder is in none) is its own root.
    expect(findRepositoryRoot(path.join(top, 'loose'))).toBe(path.join(top, 'loose'));
    fs.rmSync(top, { recursive: true, force: true });
  });
});
