// Reading a database file that belongs to someone else (a copy from a phone, another app's
// file) without changing anything on disk: not the file, not its -wal, and no new -wal, -shm
// or -journal beside it. SQLite itself cannot promise that for a WAL file (a reader creates the
// -shm and -wal, and recovers a -wal into the file when it is the last connection). So the file is read as plain bytes: when
// it can leave a trace (WAL mode, or a -wal or -journal beside it) the file and those companions
// are copied into a private temporary folder and SQLite opens the copy, honouring the -wal
// there; a rollback-journal file with no companions is opened read-only in place. (An engine
// with SQLite's `immutable` URI parameter could skip the copy; the seam does not assume one.)
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { FileNotFoundError, NotADatabaseError } from '../errors.js';
import { asOpenError, type Db, type DriverOptions } from './connection.js';
import { resolveDriver } from './drivers/index.js';
import { privateCopy } from './read-only.js';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** The first 100 bytes of the file (fewer when it is shorter). */
function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(100);
    return head.subarray(0, readSync(fd, head, 0, 100, 0));
  } finally {
    closeSync(fd);
  }
}

/** True when the file starts with SQLite's header: a database, not a zip or JSON. */
export function isSqliteFile(path: string): boolean {
  return statSync(path).isFile() && readHeader(path).subarray(0, HEADER.length).equals(HEADER);
}

export interface SourceDatabase {
  readonly db: Db;
  /** Closes the connection and removes the private copy, if one was made. */
  close(): void;
}

/** Opens another program's database for reading, leaving everything on disk as it was. */
export function openSourceDatabase(path: string, options: DriverOptions = {}): SourceDatabase {
  if (!existsSync(path)) throw new FileNotFoundError(path);
  const head = readHeader(path);
  if (!head.subarray(0, HEADER.length).equals(HEADER)) throw new NotADatabaseError(path, 'no SQLite header');
  // Bytes 18 and 19 are the read and write format versions: 2 means WAL.
  const wal = head[18] === 2 || head[19] === 2;
  const companions = ['-wal', '-journal'].filter((s) => existsSync(path + s));
  if (!wal && companions.length === 0) {
    const db = open(path, path, true, options);
    return { db, close: () => db.close() };
  }
  const copy = privateCopy(path, companions, 'legado-source-');
  try {
    // Read-write on the copy, so SQLite recovers its -wal or rolls back its hot journal.
    const db = open(path, copy.file, false, options);
    return {
      db,
      close: () => {
        try {
          db.close();
        } finally {
          copy.remove();
        }
      },
    };
  } catch (e) {
    copy.remove();
    throw e;
  }
}

function open(path: string, file: string, readonly: boolean, options: DriverOptions): Db {
  let db: Db | undefined;
  try {
    db = resolveDriver(options.driver).open(file, { readonly, fileMustExist: true });
    // Reading the schema proves the file is a database SQLite can read.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (e) {
    db?.close();
    throw asOpenError(path, e);
  }
}
