// An engine's error on opening a file, as the store's typed error where there is one.
import { CorruptError, NotADatabaseError } from '../errors.js';

export function asOpenError(path: string, e: unknown): unknown {
  const code = (e as { code?: string }).code;
  if (code === 'SQLITE_NOTADB') return new NotADatabaseError(path, (e as Error).message);
  if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) return new CorruptError(path, [{ message: (e as Error).message }]);
  return e;
}
