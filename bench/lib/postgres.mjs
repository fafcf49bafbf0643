// A throwaway PostgreSQL cluster for the bench: initdb + pg_ctl as test-utils' startPostgres
// does (that helper is TypeScript, which the bench's plain Node cannot import), but with
// PostgreSQL's durable defaults (fsync on): the bench measures writes answered after commit.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BINARIES = ['initdb', 'pg_ctl', 'postgres'];

/** The folder holding initdb, pg_ctl and postgres: PATH, else Debian's /usr/lib/postgresql/<v>/bin. */
export function postgresBinDir() {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  try {
    const root = '/usr/lib/postgresql';
    for (const v of fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)))
      dirs.push(path.join(root, v, 'bin'));
  } catch {}
  return dirs.find((dir) => BINARIES.every((name) => fs.existsSync(path.join(dir, name))));
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a cluster; answers `{ url, dataDir, stop() }`. */
export async function startPostgres() {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error('no initdb, pg_ctl and postgres on PATH or in /usr/lib/postgresql/*/bin');
  const asRoot = process.getuid?.() === 0;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-bench-pg-'));
  const dataDir = path.join(root, 'data');
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    fs.chownSync(root, id('-u'), id('-g'));
  }
  const run = (name, args) => {
    const program = path.join(binDir, name);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', program, ...args], { stdio: 'ignore' });
    else execFileSync(program, args, { stdio: 'ignore' });
  };
  run('initdb', [
    '-D',
    dataDir,
    '-U',
    'testrun',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    '--no-instructions',
  ]);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${root}`;
  run('pg_ctl', [
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
  const stopNow = () => {
    try {
      run('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w']);
    } catch {}
    fs.rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', stopNow);
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    // Through the cluster's Unix socket, as a PostgreSQL on the server's own machine is reached
    // (psql's default): over TCP loopback the same ingest took ~15 % more CPU on both sides
    // (bench/README.md, figure 10). BENCH_POSTGRES_TCP=1 measures over TCP instead.
    url: process.env.BENCH_POSTGRES_TCP
      ? `postgres://testrun@127.0.0.1:${port}/postgres`
      : `postgres://testrun@localhost:${port}/postgres?host=${encodeURIComponent(root)}`,
    dataDir,
    /**
     * CPU time (ms) the cluster has used so far: the postmaster, its live processes (backends,
     * WAL writer, checkpointer…) and those it has reaped (Linux /proc, in 100 Hz ticks).
     */
    cpuMs: () => {
      const ticks = (pid, withChildren) => {
        try {
          const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
          return Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0);
        } catch {
          return 0; // a process that ended between the listing and the read
        }
      };
      let total = ticks(postmaster, true);
      const children = fs.readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim();
      for (const pid of children ? children.split(' ') : []) total += ticks(pid, false);
      return total * 10;
    },
    stop: () => {
      process.removeListener('exit', stopNow);
      stopNow();
    },
  };
}
