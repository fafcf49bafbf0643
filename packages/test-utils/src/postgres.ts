import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { runProcess } from './process.js';
import { closedPortUrl } from './server.js';

/**
 * A real PostgreSQL server for tests: a temporary cluster made by initdb, listening on
 * 127.0.0.1 and a free port, with password authentication (so a URL carries a password, as a
 * team's does). Start one per test file (`beforeAll`) and take a fresh database per test.
 */

const BINARIES = ['initdb', 'pg_ctl', 'postgres'] as const;

/** Said once, by every test file that skips for want of PostgreSQL. */
export const POSTGRES_MISSING =
  'PostgreSQL tests skipped: no initdb, pg_ctl and postgres on PATH or in /usr/lib/postgresql/*/bin (apt-get install postgresql, as .ci/run does)';

/**
 * The folder holding initdb, pg_ctl and postgres: PATH first, else Debian's
 * /usr/lib/postgresql/<version>/bin (newest first), which the package leaves off PATH.
 */
export function postgresBinDir(
  searchPath = process.env.PATH ?? '',
  debianRoot = '/usr/lib/postgresql',
): string | undefined {
  const onPath = searchPath.split(path.delimiter).filter((dir) => dir !== '');
  let versions: string[] = [];
  try {
    versions = fs.readdirSync(debianRoot).sort((a, b) => Number(b) - Number(a) || b.localeCompare(a));
  } catch {
    // No Debian package.
  }
  const candidates = [...onPath, ...versions.map((version) => path.join(debianRoot, version, 'bin'))];
  return candidates.find((dir) => BINARIES.every((name) => isExecutable(path.join(dir, name))));
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

let warned = false;

/**
 * Whether the PostgreSQL tests can run; when they cannot, warns POSTGRES_MISSING (once per
 * process). For `describe.skipIf(!havePostgres())`.
 */
export function havePostgres(): boolean {
  const found = postgresBinDir() !== undefined;
  if (!found && !warned) {
    warned = true;
    console.warn(POSTGRES_MISSING);
  }
  return found;
}

export interface PostgresServer {
  /** `postgres://testrun:<password>@127.0.0.1:<port>/postgres`: the maintenance database. */
  url: string;
  /** The password in every URL this server answers: for tests that prove it is never shown. */
  password: string;
  /** The cluster's folder (data, socket, log), removed by stop(). */
  directory: string;
  /** Creates an empty database and answers its URL; cheap enough for one per test. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
  /** The same at once and synchronously (`pg_ctl stop -m immediate`): for a process on its way out. */
  stopNow(): void;
}

const USER = 'testrun';
/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
const RUN_AS = 'postgres';

/** Starts a fresh cluster; throws POSTGRES_MISSING's message when the binaries are not installed. */
export async function startPostgres(): Promise<PostgresServer> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error(POSTGRES_MISSING);
  const asRoot = process.getuid?.() === 0;
  if (!swept) {
    swept = true;
    removeAbandonedClusters(os.tmpdir());
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), CLUSTER_PREFIX));
  fs.writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
  const dataDir = path.join(root, 'data');
  const password = randomBytes(12).toString('hex');
  const passwordFile = path.join(root, 'password');
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (asRoot) {
    const { uid, gid } = postgresUser();
    fs.chownSync(root, uid, gid);
    fs.chownSync(passwordFile, uid, gid);
  }
  const run = async (name: string, args: string[]) => {
    const program = path.join(binDir, name);
    const { code, stdout, stderr } = await (asRoot
      ? runProcess('runuser', ['-u', RUN_AS, '--', program, ...args])
      : runProcess(program, args));
    if (code !== 0) throw new Error(`${name} failed (exit ${code}):\n${stdout}\n${stderr}`);
  };

  await run('initdb', [
    '-D',
    dataDir,
    '-U',
    USER,
    `--pwfile=${passwordFile}`,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ]);

  // A port that was free a moment ago can be taken before the server binds it: try another.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = Number(new URL(await closedPortUrl()).port);
    const options = [
      '-c listen_addresses=127.0.0.1',
      `-c port=${port}`,
      `-c unix_socket_directories=${root}`,
      // Throwaway data: a crash of the test machine need not survive, so nothing waits for the disk.
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c max_connections=100',
    ].join(' ');
    try {
      await run('pg_ctl', [
        'start',
        '-D',
        dataDir,
        '-w',
        '-t',
        '60',
        '-l',
        path.join(root, 'server.log'),
        '-o',
        options,
      ]);
      break;
    } catch (error) {
      if (attempt === 3) throw new Error(`${(error as Error).message}\n${readLog(root)}`);
    }
  }

  const stopNow = () => {
    try {
      const args = ['stop', '-D', dataDir, '-m', 'immediate', '-w'];
      const program = path.join(binDir, 'pg_ctl');
      if (asRoot) execFileSync('runuser', ['-u', RUN_AS, '--', program, ...args], { stdio: 'ignore' });
      else execFileSync(program, args, { stdio: 'ignore' });
    } catch {
      // Already stopped.
    }
    fs.rmSync(root, { recursive: true, force: true });
  };
  // A test process that ends without afterAll (a crash, a bail) leaves no server behind.
  process.once('exit', stopNow);

  const url = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;
  let databases = 0;
  let stopped: Promise<void> | undefined;
  return {
    url,
    password,
    directory: root,
    createDatabase: async () => {
      databases += 1;
      const name = `test_${process.pid}_${databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url.replace(/\/postgres$/, `/${name}`);
    },
    stopNow: () => {
      process.removeListener('exit', stopNow);
      stopNow();
    },
    stop: () => {
      stopped ??= (async () => {
        process.removeListener('exit', stopNow);
        await run('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w']).catch(() => {});
        fs.rmSync(root, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** What every cluster's folder is named from, in the temporary folder. */
const CLUSTER_PREFIX = 'testrun-pg-';
/** In a cluster's folder: the pid of the test process that made it. */
const OWNER_FILE = 'owner.pid';
/** A folder with no owner this old was left by a run before owners were written, or by a crash. */
const UNOWNED_AGE_MS = 60 * 60_000;
let swept = false;

/**
 * Removes the clusters under `dir` whose test process is gone, ending their server first if
 * it still runs. A worker Vitest ends with SIGKILL (or one killed mid-cleanup) runs neither
 * afterAll nor its exit listener, and left its cluster behind: a developer's machine held 269
 * of them, 74 GB, when a full disk failed a run. Each process sweeps once, at its first start.
 */
export function removeAbandonedClusters(dir: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).filter((name) => name.startsWith(CLUSTER_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const root = path.join(dir, name);
    if (!abandoned(root)) continue;
    const postmaster = Number(readFirstLine(path.join(root, 'data', 'postmaster.pid')));
    // SIGQUIT is PostgreSQL's immediate shutdown, as `pg_ctl stop -m immediate` sends it.
    if (postmaster > 0 && isAlive(postmaster)) signal(postmaster, 'SIGQUIT');
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  }
}

function abandoned(root: string): boolean {
  const owner = Number(readFirstLine(path.join(root, OWNER_FILE)));
  if (owner > 0) return !isAlive(owner);
  try {
    return Date.now() - fs.statSync(root).mtimeMs > UNOWNED_AGE_MS;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone since.
  }
}

function readFirstLine(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n', 1)[0]!.trim();
  } catch {
    return '';
  }
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', RUN_AS], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', RUN_AS], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function readLog(root: string): string {
  try {
    return fs.readFileSync(path.join(root, 'server.log'), 'utf8');
  } catch {
    return '';
  }
}
