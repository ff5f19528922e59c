// SQLite's result code names (sqlite3.h), for engines whose errors carry only the number
// (node:sqlite's `errcode`). An extended code is its primary code plus (n << 8).
const PRIMARY = [
  'OK',
  'ERROR',
  'INTERNAL',
  'PERM',
  'ABORT',
  'BUSY',
  'LOCKED',
  'NOMEM',
  'READONLY',
  'INTERRUPT',
  'IOERR',
  'CORRUPT',
  'NOTFOUND',
  'FULL',
  'CANTOPEN',
  'PROTOCOL',
  'EMPTY',
  'SCHEMA',
  'TOOBIG',
  'CONSTRAINT',
  'MISMATCH',
  'MISUSE',
  'NOLFS',
  'AUTH',
  'FORMAT',
  'RANGE',
  'NOTADB',
  'NOTICE',
  'WARNING',
] as const;

/** The extended codes of each primary code, in order from n = 1 ('' where a number is unused). */
const EXTENDED: Readonly<Partial<Record<(typeof PRIMARY)[number], readonly string[]>>> = {
  OK: ['LOAD_PERMANENTLY', 'SYMLINK'],
  ERROR: ['MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT'],
  ABORT: ['', 'ROLLBACK'],
  BUSY: ['RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  LOCKED: ['SHAREDCACHE', 'VTAB'],
  READONLY: ['RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  IOERR: [
    'READ',
    'SHORT_READ',
    'WRITE',
    'FSYNC',
    'DIR_FSYNC',
    'TRUNCATE',
    'FSTAT',
    'UNLOCK',
    'RDLOCK',
    'DELETE',
    'BLOCKED',
    'NOMEM',
    'ACCESS',
    'CHECKRESERVEDLOCK',
    'LOCK',
    'CLOSE',
    'DIR_CLOSE',
    'SHMOPEN',
    'SHMSIZE',
    'SHMLOCK',
    'SHMMAP',
    'SEEK',
    'DELETE_NOENT',
    'MMAP',
    'GETTEMPPATH',
    'CONVPATH',
    'VNODE',
    'AUTH',
    'BEGIN_ATOMIC',
    'COMMIT_ATOMIC',
    'ROLLBACK_ATOMIC',
    'DATA',
    'CORRUPTFS',
    'IN_PAGE',
  ],
  CORRUPT: ['VTAB', 'SEQUENCE', 'INDEX'],
  CANTOPEN: ['NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  CONSTRAINT: ['CHECK', 'COMMITHOOK', 'FOREIGNKEY', 'FUNCTION', 'NOTNULL', 'PRIMARYKEY', 'TRIGGER', 'UNIQUE', 'VTAB', 'ROWID', 'PINNED', 'DATATYPE'],
  NOTICE: ['RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  WARNING: ['AUTOINDEX'],
  AUTH: ['USER'],
};

/** 'SQLITE_CONSTRAINT_UNIQUE' for 2067; undefined for a number SQLite does not define. */
export function resultCodeName(code: number): string | undefined {
  const primary = PRIMARY[code & 0xff];
  if (primary === undefined) return undefined;
  const n = code >> 8;
  if (n === 0) return `SQLITE_${primary}`;
  const ext = EXTENDED[primary]?.[n - 1];
  return ext ? `SQLITE_${primary}_${ext}` : undefined;
}
