import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout } from 'node:timers/promises';

/** The embedded database's file in a data folder. */
export const DATABASE_FILE = 'testrun.db';
const OWNER_FILE = 'server.pid';

/** A data folder another live process is serving: two servers on one SQLite file would corrupt it. */
export class DataFolderInUseError extends Error {
  readonly code = 'data_folder_in_use';
  constructor(folder: string, pid: number | undefined) {
    super(
      `${folder} is in use by another testrun server${pid === undefined ? '' : ` (process ${pid})`}: stop it, or give this one another --data folder. To share data between servers, put both on PostgreSQL with --database postgres://…`,
    );
    this.name = 'DataFolderInUseError';
  }
}

/** A data folder this process owns until `release()`. */
export interface OwnedFolder {
  folder: string;
  databaseFile: string;
  release(): Promise<void>;
}

/**
 * Makes the folder (and its parents) and claims it for this process with a file holding
 * the process id. A claim left by a process that no longer runs (`kill -9`, a power cut) is
 * taken over, and with it the lock directory the WebAssembly SQLite leaves beside its file
 * (`testrun.db.lock`): that engine locks by making a directory, which a killed process never
 * removes, and which would otherwise keep the database busy forever.
 *
 * Servers may start at once on one folder (a service manager and a person, two terminals):
 * exactly one may win. The claim is written aside and linked into place, so it appears whole
 * or not at all (a claim created empty and written after was read as a dead one's by a second
 * server, and taken over: three of six servers started at once on a new folder ran on one
 * file). A dead one's claim is removed by one server at a time, the one holding the takeover
 * file (takeClaim): taking it over by rename, a late taker moved the winner's fresh claim, and
 * another starter linked its own into the gap.
 */
export async function claimDataFolder(folder: string): Promise<OwnedFolder> {
  const absolute = resolve(folder);
  await mkdir(absolute, { recursive: true });
  const ownerFile = join(absolute, OWNER_FILE);
  const claim = `${process.pid}\n${randomUUID()}\n`;
  const aside = join(absolute, `${OWNER_FILE}.${randomUUID()}`);
  await writeFile(aside, claim, { flag: 'wx' });
  try {
    await takeClaim(absolute, ownerFile, aside);
  } finally {
    await unlink(aside).catch(() => {});
  }
  const databaseFile = join(absolute, DATABASE_FILE);
  await rm(`${databaseFile}.lock`, { recursive: true, force: true });
  return {
    folder: absolute,
    databaseFile,
    // Only our own claim: never one another server holds.
    release: async () => {
      if ((await readFile(ownerFile, 'utf8').catch(() => '')) === claim)
        await unlink(ownerFile).catch(() => {});
    },
  };
}

async function takeClaim(folder: string, ownerFile: string, aside: string): Promise<void> {
  const takeover = `${ownerFile}.takeover`;
  // Each turn claims, refuses, or waits a moment for another server's takeover to end.
  for (let turn = 0; turn < 200; turn += 1) {
    try {
      await link(aside, ownerFile);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = await readFile(ownerFile, 'utf8').catch(() => undefined);
    if (held === undefined) continue;
    const owner = ownerOf(held);
    if (owner !== undefined && isAlive(owner)) throw new DataFolderInUseError(folder, owner);
    // A dead one's claim. Only the server holding the takeover file removes it, after reading
    // it again: no other can have replaced it meanwhile (a new claim is only ever linked into
    // an empty place), so a live claim is never removed.
    try {
      await link(aside, takeover);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another server is taking over; one killed in the middle of it leaves its file behind.
      const taker = ownerOf(await readFile(takeover, 'utf8').catch(() => ''));
      if (taker === undefined || !isAlive(taker)) await unlink(takeover).catch(() => {});
      else await setTimeout(10);
      continue;
    }
    try {
      if ((await readFile(ownerFile, 'utf8').catch(() => undefined)) === held) await unlink(ownerFile);
    } finally {
      await unlink(takeover);
    }
  }
  throw new DataFolderInUseError(folder, undefined);
}

/** The process id a claim names, if it names one. */
function ownerOf(claim: string): number | undefined {
  const pid = Number.parseInt(claim, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
