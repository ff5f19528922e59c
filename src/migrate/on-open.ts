// openStore's `upgrade: true`: a file of a version below the one asked for (62 when none is) is
// upgraded to it before it is opened. Every other file is left to openStore's own checks, which
// accept or refuse it as they always do.
import { asOpenError, openForInspection, type DriverOptions } from '../engine/connection.js';
import { VersionMismatchError } from '../errors.js';
import { isSupportedVersion, type SchemaVersion } from '../schema/index.js';
import { migrate } from './migrate.js';

export interface UpgradeOnOpen extends DriverOptions {
  readonly to: SchemaVersion;
  readonly readonly?: boolean;
  readonly busyTimeout?: number;
}

export function upgradeOnOpen(path: string, options: UpgradeOnOpen): void {
  const version = fileVersion(path, options);
  if (!isSupportedVersion(version) || version >= options.to) return;
  if (options.readonly) {
    throw new VersionMismatchError(path, version, options.to, 'a read-only store cannot upgrade it; open it writable, or run legado-store migrate');
  }
  migrate(path, { to: options.to, busyTimeout: options.busyTimeout, driver: options.driver });
}

function fileVersion(path: string, options: DriverOptions): number {
  const db = openForInspection(path, options);
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}
