// Node's file-system errors (EACCES, ENOSPC, EISDIR, ...) as the store's typed errors, naming
// the path. Used wherever the store reads or writes a file itself (not through SQLite).
import { CannotOpenError, CannotWriteError, DiskFullError, FileNotFoundError, LegadoStoreError, ReadOnlyError } from '../errors.js';

/** `e` as a LegadoStoreError when it is a file-system error; anything else unchanged. */
export function fsError(path: string, e: unknown, doing: 'read' | 'write' = 'write'): unknown {
  if (e instanceof LegadoStoreError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return e;
  const detail = (e as Error).message.replace(/^[A-Z]+: /, '');
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
    case 'EFBIG':
      return new DiskFullError(path, detail);
    case 'EROFS':
      return new ReadOnlyError(path, `on a read-only file system (${detail})`);
    case 'ENOENT':
      return doing === 'read' ? new FileNotFoundError(path) : new CannotOpenError(path, `its folder does not exist (${detail})`);
    case 'ENOTDIR':
      return new CannotOpenError(path, `a part of the path is not a folder (${detail})`);
    case 'EISDIR':
      return new CannotOpenError(path, `it is a folder (${detail})`);
    case 'EACCES':
    case 'EPERM':
      return doing === 'read' ? new CannotOpenError(path, `permission denied (${detail})`) : new CannotWriteError(path, `permission denied (${detail})`);
    case 'ERR_INVALID_ARG_VALUE':
    case 'ERR_INVALID_ARG_TYPE':
      return new CannotOpenError(path, 'not a usable path (a NUL byte in it?)');
    case 'EIO':
    case 'EMFILE':
    case 'ENFILE':
    case 'EBUSY':
    case 'ETXTBSY':
    case 'ENAMETOOLONG':
    case 'ELOOP':
    case 'EEXIST':
      return doing === 'read' ? new CannotOpenError(path, detail) : new CannotWriteError(path, detail);
    default:
      return e;
  }
}
