// legado-store/webdav: the store as one more device in the app's WebDAV folder, as plain
// functions of a store (Node only: the sync keeps its state file below schema 71 through node:fs).
import type { ImportOptions } from '../backup/import.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import type { WebDavConnection } from './client.js';
import type { ProgressDirection, ProgressReport } from './progress.js';
import { listWebDavBackups, WebDavSync, type BackupReport, type ListReport, type RestoreReport, type WebDavOptions } from './sync.js';

/** The store's side of the app's WebDAV folder: `backup()`, `list()`, `restore(name?)`, `progress()`. The address is checked at once. */
export function webdavSync(store: Store<SchemaVersion>, options: WebDavOptions): WebDavSync {
  return new WebDavSync(store, options);
}

/** Uploads a backup zip of the store under the app's name for today (`overwrite` to replace one of that name). */
export function webdavBackup(store: Store<SchemaVersion>, options: WebDavOptions & { readonly overwrite?: boolean }): Promise<BackupReport> {
  return webdavSync(store, options).backup({ ...(options.overwrite !== undefined ? { overwrite: options.overwrite } : {}) });
}

/** Downloads the newest backup (or `name`) and imports it: merged as the app restores, in one transaction. */
export function webdavRestore(
  store: Store<SchemaVersion>,
  options: WebDavOptions & { readonly name?: string; readonly import?: Omit<ImportOptions, 'kind'> },
): Promise<RestoreReport> {
  return webdavSync(store, options).restore(options.name, options.import);
}

/** Reading progress both ways (the app's bookProgress folder); `direction` 'push' or 'pull' for one way. */
export function webdavProgress(
  store: Store<SchemaVersion>,
  options: WebDavOptions & { readonly direction?: ProgressDirection; readonly force?: boolean },
): Promise<ProgressReport> {
  return webdavSync(store, options).progress({
    ...(options.direction !== undefined ? { direction: options.direction } : {}),
    ...(options.force !== undefined ? { force: options.force } : {}),
  });
}

/** The backups on the server, newest first; no store needed. */
export function webdavList(options: WebDavConnection): Promise<ListReport> {
  return listWebDavBackups(options);
}

export { WebDavSync, type WebDavOptions, type BackupReport, type ListReport, type RestoreReport, type BackupEntry } from './sync.js';
export type { WebDavConnection } from './client.js';
export type { ProgressReport, ProgressDirection, AppliedProgress, BookOutcome, KeptProgress, SkippedFile, Position } from './progress.js';
export { progressFileName, backupFileName } from './names.js';
export * from './errors.js';
