// openStore's `upgrade: true`: a schema-49 file is upgraded to 62 before it is opened. Every
// other file is left to openStore's own checks, which accept or refuse it as they always do.
import { asOpenError, openForInspection } from '../engine/connection.js';
import { VersionMismatchError } from '../errors.js';
import { migrate } from './migrate.js';

export function upgradeOnOpen(path: string, options: { readonly readonly?: boolean; readonly busyTimeout?: number }): void {
  if (fileVersion(path) !== 49) return;
  if (options.readonly) {
    throw new VersionMismatchError(path, 49, 62, 'a read-only store cannot upgrade it; open it writable, or run legado-store migrate');
  }
  migrate(path, { busyTimeout: options.busyTimeout });
}

function fileVersion(path: string): number {
  const db = openForInspection(path);
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}
