import { mkdir, open, readFile, rm, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The embedded database's file in a data folder. */
export const DATABASE_FILE = 'testrun.db';
const OWNER_FILE = 'server.pid';

/** A data folder another live process is serving: two servers on one SQLite file would corrupt it. */
export class DataFolderInUseError extends Error {
  readonly code = 'data_folder_in_use';
  constructor(folder: string, pid: number) {
    super(
      `${folder} is in use by another testrun server (process ${pid}): stop it, or give this one another --data folder. To share data between servers, put both on PostgreSQL with --database postgres://…`,
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
 */
export async function claimDataFolder(folder: string): Promise<OwnedFolder> {
  const absolute = resolve(folder);
  await mkdir(absolute, { recursive: true });
  const ownerFile = join(absolute, OWNER_FILE);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(ownerFile, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const owner = Number.parseInt(await readFile(ownerFile, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner))
        throw new DataFolderInUseError(absolute, owner);
      await unlink(ownerFile).catch(() => {});
    }
  }
  const databaseFile = join(absolute, DATABASE_FILE);
  await rm(`${databaseFile}.lock`, { recursive: true, force: true });
  return {
    folder: absolute,
    databaseFile,
    release: () => unlink(ownerFile).catch(() => {}),
  };
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
