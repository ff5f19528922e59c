// The check a store path gets before SQLite sees it: SQLite would stop at a NUL byte and open
// (or create) another file. No Node built-in here: the browser entry opens stores too.
import { CannotOpenError } from '../errors.js';

export function checkPathName(path: string): void {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
    throw new CannotOpenError(String(path), 'not a usable file name (empty, or a NUL byte in it)');
  }
}
