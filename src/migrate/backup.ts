// A consistent copy of the file before it is upgraded. VACUUM INTO reads through the
// connection, so the copy holds what the -wal holds too, and it is one self-contained file.
// It is written under a temporary name and renamed into place once complete (the driver's
// DriverFiles.writeThrough), so the backup path never holds half a copy, even if the process is
// killed while writing it. VACUUM INTO cannot run inside a transaction, so the runner proves
// afterwards, with PRAGMA data_version, that nobody committed between the copy and the
// upgrade's write lock.
import type { Db } from '../engine/connection.js';
import type { Driver } from '../engine/driver.js';
import { DriverUnavailableError } from '../errors.js';

/** A SQLite store's companion files: they count as the backup existing, and go when it is replaced. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/** Writes the copy; returns the data version it was taken at. */
export function writeBackup(db: Db, driver: Driver, target: string, overwrite = false): number {
  if (!driver.files) throw new DriverUnavailableError(driver.name, 'a backup file beside the database needs a file system (capabilities.files)');
  const version = dataVersion(db);
  driver.files.writeThrough(target, (temp) => db.prepare('VACUUM INTO ?').run(temp), { overwrite, purpose: 'a backup', companions: SQLITE_COMPANIONS });
  return version;
}

/** Changes when another connection commits to the file (SQLite's PRAGMA data_version). */
export const dataVersion = (db: Db): number => db.pragma('data_version', { simple: true }) as number;
