// The store as one more device in the app's WebDAV folder: backups up and down, reading progress
// both ways. Every operation returns a report that counts its requests.
import { BadArchiveError } from '../backup/errors.js';
import { exportBackupZip } from '../backup/export.js';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkKindOption, newPlan, planZip, runImport, type ImportOptions } from '../backup/import.js';
import { fileAccess, fileHead } from '../fs/byte-sources.js';
import { tempPathFor } from '../fs/safe-write.js';
import type { ImportResult } from '../backup/report.js';
import { isZipSignature } from '../backup/zip.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { checkConnection, DavClient, type DavFile, type WebDavConnection } from './client.js';
import { BackupExistsError, WebDavNotFoundError } from './errors.js';
import { syncMarks } from './marks.js';
import { alphanumCompare, backupFileName, isBackupName, progressFileName } from './names.js';
import { writeProgressFile, type RemoteProgress } from './progress-file.js';
import { syncProgress, type ProgressDirection, type ProgressReport } from './progress.js';

export interface WebDavOptions extends WebDavConnection {
  /** The app's device name setting: backups are named `backup<date>-<device>.zip`. */
  readonly device?: string | undefined;
  /** Where the sync state is kept for stores below schema 71 (default `<store>.webdav-sync.json`). */
  readonly stateFile?: string;
}

export interface BackupReport {
  readonly folder: string;
  readonly name: string;
  readonly bytes: number;
  /** A file of that name was on the server and was replaced (only with `overwrite`). */
  readonly replaced: boolean;
  /** Folders created because they were missing, as the app creates them. */
  readonly createdFolders: string[];
  /** Backup files in the zip (bookshelf.json, bookSource.json, ...). */
  readonly files: string[];
  readonly requests: number;
}

export interface BackupEntry {
  readonly name: string;
  readonly size: number;
  /** ISO 8601 time of the last modification on the server. */
  readonly modified: string;
}

export interface ListReport {
  readonly folder: string;
  /** Newest first (latest modification time, then the app's name order). */
  readonly backups: BackupEntry[];
  readonly requests: number;
}

export interface RestoreReport {
  readonly folder: string;
  readonly name: string;
  readonly bytes: number;
  /** The ordinary import's report: merged as the app restores, in one transaction. */
  readonly import: ImportResult;
  readonly requests: number;
}

/** The app's sub-folders of its WebDAV folder, created with it. */
const SUB_FOLDERS = ['bookProgress', 'books', 'background'] as const;

export class WebDavSync {
  constructor(
    private readonly store: Store<SchemaVersion>,
    private readonly options: WebDavOptions,
  ) {
    // Checks the address at once, before anything else happens.
    checkConnection(options);
  }

  /** Uploads a backup zip of the store under the app's name for today. */
  async backup(options: { overwrite?: boolean | undefined; device?: string | undefined } = {}): Promise<BackupReport> {
    const dav = new DavClient(this.options);
    const name = backupFileName(new Date(this.store.clock()), options.device ?? this.options.device);
    const listing = await dav.list();
    const existing = listing?.find((f) => !f.folder && f.name === name);
    if (existing && !options.overwrite) throw new BackupExistsError(dav.root + encodeURIComponent(name));
    const createdFolders = await ensureFolders(dav, listing);
    const { bytes, result } = exportBackupZip(this.store);
    await dav.put(name, bytes, 'application/octet-stream');
    return {
      folder: dav.root,
      name,
      bytes: bytes.byteLength,
      replaced: existing !== undefined,
      createdFolders,
      files: result.files.map((f) => f.file),
      requests: dav.requests,
    };
  }

  /** The backups in the folder, newest first. */
  async list(): Promise<ListReport> {
    return listWebDavBackups(this.options);
  }

  /** Downloads the newest backup (or `name`) and imports it with the ordinary import. */
  async restore(name?: string, importOptions: Omit<ImportOptions, 'kind'> = {}): Promise<RestoreReport> {
    const dav = new DavClient(this.options);
    let file: DavFile | undefined;
    if (name === undefined) {
      file = (await listBackups(dav))[0];
      if (!file) throw new WebDavNotFoundError('PROPFIND', dav.root, 404, 'no backup in the folder');
    }
    const chosen = file?.name ?? name!;
    // Streamed to disk beside the store (it may hold secrets: owner-only, removed whatever happens),
    // then read in place as any zip import is: a backup is never held whole in memory.
    checkKindOption(importOptions);
    const temp = tempPathFor(join(this.downloadFolder(), 'webdav-restore.zip'));
    let bytes: number;
    let result: ImportResult;
    try {
      bytes = await dav.download(chosen, temp, file?.size);
      // A page of an error or a quota notice is not a backup: refused before the import sees it.
      if (!isZipSignature(fileHead(temp, 4)))
        throw new BadArchiveError(
          dav.root + encodeURIComponent(chosen),
          undefined,
          'not a zip archive (the backup on the server is damaged or not a backup); nothing was imported',
        );
      const plan = newPlan();
      try {
        planZip(plan, { ...fileAccess(temp), name: chosen }, importOptions);
        result = runImport(this.store, plan, importOptions);
      } finally {
        for (const clean of plan.cleanup) clean();
      }
    } finally {
      rmSync(temp, { force: true });
    }
    return { folder: dav.root, name: chosen, bytes, import: result, requests: dav.requests };
  }

  /** The store's folder (a file store), else the system's temporary folder. */
  private downloadFolder(): string {
    const path = this.store.path;
    return path && path !== ':memory:' && !path.startsWith('file:') ? dirname(path) : tmpdir();
  }

  /**
   * Uploads one book's position as the app does after a save (AppWebDav.uploadBookProgress):
   * `bookProgress/<name>_<author>.json`, the folders made when the server has none; then the
   * book's syncTime is set (the column, or the state file below schema 71). A failed upload
   * throws and sets nothing.
   */
  async pushProgress(p: RemoteProgress & { readonly bookUrl: string }): Promise<void> {
    const dav = new DavClient(this.options);
    const file = `bookProgress/${progressFileName(p.name, p.author)}`;
    const text = writeProgressFile(p);
    try {
      await dav.put(file, text, 'application/json');
    } catch (e) {
      if (!(e instanceof WebDavNotFoundError)) throw e;
      await ensureFolders(dav, undefined);
      await dav.put(file, text, 'application/json');
    }
    const marks = syncMarks(this.store, dav.root, this.options.stateFile);
    const patch = marks.patch(p.bookUrl, this.store.clock());
    if (Object.keys(patch).length) this.store.table('books').update(p.bookUrl, patch);
    marks.committed();
  }

  /**
   * Reading progress: pull, push, or both (default), by the app's rules (docs/webdav.md). A push
   * never replaces a file further ahead, or one moved back elsewhere since the last sync, unless
   * `force`: then every book read here since its last sync is sent as it is.
   */
  async progress(options: { direction?: ProgressDirection | undefined; force?: boolean | undefined } = {}): Promise<ProgressReport> {
    const dav = new DavClient(this.options);
    const marks = syncMarks(this.store, dav.root, this.options.stateFile);
    return syncProgress(this.store, dav, marks, options.direction ?? 'both', () => ensureFolders(dav, undefined), options.force ?? false);
  }
}

/** The backups in the folder, newest first: needs only the address and the account, no store. */
export async function listWebDavBackups(options: WebDavConnection): Promise<ListReport> {
  const dav = new DavClient(options);
  const backups = await listBackups(dav);
  return { folder: dav.root, backups: backups.map(entry), requests: dav.requests };
}

/** The folder's backups: a PROPFIND of the folder, names starting with `backup`, newest first. */
async function listBackups(dav: DavClient): Promise<DavFile[]> {
  const listing = await dav.list();
  if (!listing) throw new WebDavNotFoundError('PROPFIND', dav.root, 404, 'the folder is not on the server');
  return listing.filter((f) => !f.folder && isBackupName(f.name)).sort((a, b) => b.modified - a.modified || alphanumCompare(b.name, a.name));
}

const entry = (f: DavFile): BackupEntry => ({ name: f.name, size: f.size, modified: new Date(f.modified).toISOString() });

/**
 * Creates the folder and its sub-folders where the listing (when there is one) lacks them, as the
 * app does on setup. Without a listing every folder gets a MKCOL (an existing one answers 405).
 */
async function ensureFolders(dav: DavClient, listing: DavFile[] | undefined): Promise<string[]> {
  const created: string[] = [];
  if (!listing) {
    for (const segment of dav.dirSegments) await dav.mkcol(segment);
    created.push(dav.root);
  }
  for (const sub of SUB_FOLDERS) {
    if (listing?.some((f) => f.folder && f.name === sub)) continue;
    await dav.mkcol(dav.path(`${sub}/`));
    created.push(`${dav.root}${sub}/`);
  }
  return created;
}
