// The file-based imports (Node): paths become byte sources (fs/byte-sources.ts) and go through the same
// pipeline as bytes in memory (backup/import.ts). A zip is read in place, entry by entry, never extracted.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FileNotFoundError } from '../errors.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { BadArchiveError, UnsupportedInputError } from '../backup/errors.js';
import {
  checkKindOption,
  importBytesSync,
  newPlan,
  planBackupEntries,
  planRuleFile,
  planBytes,
  planZip,
  runImport,
  type FileBytes,
  type ImportOptions,
  type Plan,
} from '../backup/import.js';
import { fileAccess, fileHead, fileSource, isSqliteFileOnDisk } from '../fs/byte-sources.js';
import { importDatabase } from '../backup/database.js';
import type { DriverOptions } from '../engine/connection.js';
import type { ImportResult } from '../backup/report.js';
import { isZipSignature } from '../backup/zip.js';

export type { FileBytes };
/**
 * What `importBackup` takes: a path (a backup zip or folder, a rule file, another Legado database
 * file), a zip or rule file in memory, or several of these, each imported as what it is.
 */
export type BackupInput = string | Uint8Array | readonly (string | FileBytes)[];

export interface BackupImportOptions extends ImportOptions, DriverOptions {
  /** What reports call bytes given alone (default backup.zip or input.json). */
  readonly name?: string;
}

/**
 * Imports a backup, rule files or a database file into the store, in one transaction: every
 * input as what it is (a zip or a folder is a backup, a SQLite file another Legado database, any
 * other file a rule file). A database file is imported on its own; its report says what it was
 * (`source`) and what had no place in the store (`notCarried`).
 */
export async function importBackup(store: Store<SchemaVersion>, input: BackupInput, options: BackupImportOptions = {}): Promise<ImportResult> {
  if (input instanceof Uint8Array) return importBytesSync(store, input, options);
  const inputs = typeof input === 'string' ? [input] : input;
  const database = inputs.find((i): i is string => typeof i === 'string' && isSqliteFileOnDisk(i));
  if (database !== undefined) {
    if (inputs.length > 1) throw new UnsupportedInputError(database, 'a database file: import it on its own, not together with other inputs');
    return importDatabase(store, database, options);
  }
  return importInputs(store, inputs, options);
}

/** Imports rule files (book sources, RSS sources, replace rules, TXT TOC rules, TTS engines, dictionary rules, ...). */
export async function importFiles(store: Store<SchemaVersion>, paths: readonly string[], options: ImportOptions = {}): Promise<ImportResult> {
  return importInputs(store, paths, options, 'collection');
}

/** Imports each input as what it is: a zip or a folder is a backup, any other file a rule file. */
export async function importInputs(
  store: Store<SchemaVersion>,
  inputs: readonly (string | FileBytes)[],
  options: ImportOptions = {},
  as?: 'backup' | 'collection',
): Promise<ImportResult> {
  checkKindOption(options);
  const plan = newPlan();
  try {
    for (const input of inputs) planInput(plan, input, as, options);
    return runImport(store, plan, options);
  } finally {
    for (const clean of plan.cleanup) clean();
  }
}

function planInput(plan: Plan, input: string | FileBytes, as: 'backup' | 'collection' | undefined, options: ImportOptions): void {
  if (typeof input !== 'string') {
    planBytes(plan, input, options);
    return;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    throw new UnsupportedInputError(input, 'a remote URL: download it first and import the downloaded file');
  }
  if (!existsSync(input)) throw new FileNotFoundError(input);
  if (statSync(input).isDirectory()) {
    if (as === 'collection') throw new UnsupportedInputError(input, 'a folder: import it as a backup');
    planFolder(plan, input);
    return;
  }
  const zip = isZipSignature(fileHead(input, 4));
  if (zip) {
    planZip(plan, fileAccess(input), options);
    return;
  }
  // A file called .zip that is not one is a damaged or mislabelled archive, not a rule file.
  if (as === 'backup' || input.toLowerCase().endsWith('.zip')) {
    throw new BadArchiveError(
      input,
      undefined,
      as === 'backup' && !input.toLowerCase().endsWith('.zip') ? 'not a zip archive or a folder' : 'not a zip archive',
    );
  }
  planRuleFile(plan, fileSource(input), basename(input));
}

function planFolder(plan: Plan, dir: string): void {
  const entries = readdirSync(dir, { withFileTypes: true });
  for (const e of entries)
    if (e.isDirectory())
      plan.notImported.push({
        file: join(dir, e.name),
        status: 'not-imported',
        reason: 'a folder inside the backup folder',
        read: 0,
        stored: 0,
        duplicates: 0,
        skipped: 0,
      });
  planBackupEntries(
    plan,
    entries.filter((e) => e.isFile()).map((e) => ({ name: e.name, display: join(dir, e.name), source: fileSource(join(dir, e.name)) })),
  );
}
