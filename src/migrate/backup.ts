// A consistent copy of the file before it is upgraded. VACUUM INTO reads through the
// connection, so the copy holds what the -wal holds too, and it is one self-contained file.
// It is written under a temporary name and renamed into place once complete, so the backup
// path never holds half a copy, even if the process is killed while writing it.
// VACUUM INTO cannot run inside a transaction, so the runner proves afterwards, with
// PRAGMA data_version, that nobody committed between the copy and the upgrade's write lock.
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import type { Db } from '../engine/connection.js';

/** Writes the copy; returns the data version it was taken at. */
export function writeBackup(db: Db, target: string): number {
  const version = dataVersion(db);
  const partial = `${target}.${process.pid}.partial`;
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    const fd = openSync(partial, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, target);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
  return version;
}

/** Changes when another connection commits to the file (SQLite's PRAGMA data_version). */
export const dataVersion = (db: Db): number => db.pragma('data_version', { simple: true }) as number;
