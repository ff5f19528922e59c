import { existsSync } from 'node:fs';
import type { CliIo, CliRun } from '../io.js';
import type { Command } from 'commander';
import type { DatabaseImportResult } from '../../backup/database.js';
import { isSqliteFileOnDisk } from '../../fs/byte-sources.js';
import { kindNotes, nothingStoredHint, type ImportResult } from '../../backup/report.js';
import { NEWEST_VERSION, OLDEST_VERSION } from '../../schema/index.js';
import { removeCreated, sayCreated } from '../open-store.js';
import { importInWorker } from '../import-run.js';
import { FileNotFoundError } from '../../errors.js';
import { backupFileByKind, KIND_NAMES } from '../../backup/file-map.js';
import { askSecret, BACKUP_PASSWORD_ENV, secretFromEnv } from '../secret.js';
import { EXIT, parseSchemaOption, signalExitCode, UsageError } from '../exit.js';
import { progressBar } from '../progress.js';
import { printableLines } from '../printable.js';

interface ImportFlags {
  kind?: string;
  strict?: boolean;
  json?: boolean;
  password?: string;
  askPassword?: boolean;
  schema?: string;
  keepName?: boolean;
  keepGroup?: boolean;
  keepEnabled?: boolean;
  onlyNewer?: boolean;
  maxEntrySize?: string;
  maxArchiveSize?: string;
  maxRatio?: string;
  maxRecordSize?: string;
}

/** A size in bytes, with an optional K, M or G (binary) suffix. */
export function parseSize(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([KMG]?)i?B?$/i.exec(value.trim());
  if (!m) throw new UsageError(`${flag} must be a size such as 800M or 2G, not ${JSON.stringify(value)}`);
  return Math.round(Number(m[1]) * 1024 ** ' KMG'.indexOf((m[2] || ' ').toUpperCase()));
}

export function registerImport(program: Command, io: CliRun): void {
  program
    .command('import')
    .description(
      'import a Legado backup (zip or folder), rule files (book sources, RSS sources, replace rules, ...) or another Legado database file (any version or fork) into a store',
    )
    .argument('<store>', `the store file (created at schema ${NEWEST_VERSION}, the newest, when missing; --schema for another)`)
    .argument('<inputs...>', 'a backup zip, a backup folder, JSON rule files, or one database file (told apart by its SQLite header)')
    .option(
      '--kind <kind>',
      'what the rule files hold (bookSource, rssSource, replaceRule, txtTocRule, httpTTS, dictRule, ...); detected from the keys when left out',
    )
    .option('--strict', 'all or nothing: fail, storing nothing, if any record or backup file cannot be read or stored')
    .option('--keep-name', 'rule files: keep the name of a source already stored (the app\'s "keep name")')
    .option('--keep-group', 'rule files: keep the group of a source already stored')
    .option('--keep-enabled', 'rule files: keep the enabled state of a source already stored')
    .option('--only-newer', 'rule files: replace a stored source only by a newer one, by lastUpdateTime (the default)')
    .option('--no-only-newer', 'rule files: replace stored sources whatever their lastUpdateTime')
    .option('--max-entry-size <size>', 'largest expanded zip entry (default 512M)')
    .option('--max-archive-size <size>', 'largest expanded zip, all entries read (default 1G)')
    .option('--max-ratio <n>', 'largest expanded/compressed ratio of a zip entry over 64M (default 100)')
    .option('--max-record-size <size>', 'largest JSON record in a zip entry (default 64M)')
    .option('--ask-password', `ask for the backup password (for an encrypted servers.json) on the terminal; or set ${BACKUP_PASSWORD_ENV}`)
    .option('--password <password>', `the backup password on the command line, where other users can see it: prefer ${BACKUP_PASSWORD_ENV} or --ask-password`)
    .option('--schema <version>', `schema version for a new store, ${OLDEST_VERSION} to ${NEWEST_VERSION} (default ${NEWEST_VERSION})`)
    .option('--json', 'print a machine-readable summary, no progress bar')
    .action(async (storePath: string, inputs: string[], flags: ImportFlags) => {
      const schema = flags.schema === undefined ? undefined : parseSchemaOption(flags.schema);
      const url = inputs.find((i) => /^[a-z][a-z0-9+.-]*:\/\//i.test(i));
      if (url) throw new UsageError(`${url} is a remote URL: download it first and import the downloaded file`);
      if (flags.kind !== undefined && !backupFileByKind(flags.kind)) {
        throw new UsageError(`--kind ${flags.kind} is not a kind; one of ${KIND_NAMES.join(', ')}`);
      }
      const databases = inputs.filter((i) => isSqliteFileOnDisk(i));
      if (databases.length && inputs.length > 1) {
        throw new UsageError(`${databases[0]} is a database file: import it on its own, not together with other inputs`);
      }
      // Before the store is opened (or created): a typo in an input leaves no new file behind.
      const missing = inputs.find((i) => !existsSync(i));
      if (missing !== undefined) throw new FileNotFoundError(missing);
      const ratio = flags.maxRatio === undefined ? undefined : Number(flags.maxRatio);
      if (ratio !== undefined && !(ratio > 0)) throw new UsageError(`--max-ratio must be a positive number, not ${JSON.stringify(flags.maxRatio)}`);
      const zipLimits = {
        ...(flags.maxEntrySize !== undefined ? { entryBytes: parseSize('--max-entry-size', flags.maxEntrySize)! } : {}),
        ...(flags.maxArchiveSize !== undefined ? { archiveBytes: parseSize('--max-archive-size', flags.maxArchiveSize)! } : {}),
        ...(ratio !== undefined ? { ratio } : {}),
        ...(flags.maxRecordSize !== undefined ? { recordBytes: parseSize('--max-record-size', flags.maxRecordSize)! } : {}),
      };
      // Asked before the store opens, so nothing waits on a lock while someone types.
      const password = await backupPassword(io, flags);
      const bar = progressBar(!flags.json, databases.length ? 'rows' : 'records', io.stderr, true);
      let total = 0;
      // In a worker, so that Ctrl-C and SIGTERM are answered (import-run.ts).
      const outcome = await importInWorker<ImportResult>(
        {
          storePath,
          inputs,
          ...(databases.length ? { database: databases[0]! } : {}),
          ...(schema === undefined ? {} : { schema }),
          options: {
            kind: flags.kind,
            strict: flags.strict,
            password,
            keepName: flags.keepName,
            keepGroup: flags.keepGroup,
            keepEnabled: flags.keepEnabled,
            onlyNewer: flags.onlyNewer,
            zipLimits,
          },
        },
        (p) => bar.update(p.bytes, (total = p.totalBytes), p.records, p.file),
      );
      if (outcome.kind === 'done') bar.update(total, total, outcome.result.totals.read, 'done');
      bar.stop();
      // A failed or interrupted import takes a store it created with it (the worker closed it).
      if (outcome.kind !== 'done' && outcome.created) removeCreated(storePath);
      if (outcome.kind === 'failed') throw outcome.error;
      if (outcome.kind === 'interrupted') {
        io.stderr.write('legado-store: interrupted: nothing stored\n');
        io.exitCode = signalExitCode(outcome.signal);
        return;
      }
      const result = outcome.result;
      if (databases.length) io.stdout.write(flags.json ? JSON.stringify(result, null, 2) + '\n' : renderDatabaseImport(result as DatabaseImportResult));
      else io.stdout.write(flags.json ? JSON.stringify(result, null, 2) + '\n' : renderImport(result));
      const hint = databases.length ? undefined : nothingStoredHint(result);
      if (hint !== undefined) {
        // A refusal, in the form of every other: CODE: message.
        io.stderr.write(`legado-store: IMPORT_REJECTED: nothing was stored: ${hint}\n`);
        io.exitCode = EXIT.failure;
      }
      // A new store is named once the import is through.
      if (outcome.created) sayCreated(io, storePath, outcome.version);
      if (outcome.signal !== undefined) {
        io.stderr.write('legado-store: interrupted after the import was stored\n');
        io.exitCode = signalExitCode(outcome.signal);
      }
      io.exitCode ??= EXIT.ok;
    });
}

const SHOWN_SKIPS = 20;

export function renderImport(r: ImportResult): string {
  const lines: string[] = [];
  const kinds = Object.values(r.kinds);
  if (kinds.length) {
    const head = ['kind', 'read', 'stored', 'updated', 'duplicates', 'conflicts', 'skipped'];
    const rows = kinds.map((k) => [k.kind, k.read, k.stored, k.updated, k.duplicates, k.conflicts, k.skipped].map(String));
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    for (const row of [head, ...rows]) lines.push(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  } else {
    lines.push('nothing imported');
  }
  for (const k of kinds) {
    const notes = kindNotes(r, k);
    if (notes.length) lines.push(`${k.kind}: ${notes.join('; ')}`);
  }
  for (const f of r.files) if (f.status !== 'imported') lines.push(`not imported: ${f.file} (${f.reason ?? f.status})`);
  for (const c of r.conflicts.slice(0, SHOWN_SKIPS)) lines.push(`conflict: ${c.kind} ${c.key}: ${c.first} and ${c.kept} differ; kept ${c.kept}`);
  if (r.conflicts.length > SHOWN_SKIPS) lines.push(`... ${r.conflicts.length - SHOWN_SKIPS} more conflicts (--json lists them all)`);
  for (const s of r.skipped.slice(0, SHOWN_SKIPS)) lines.push(`skipped: ${s.file} [${s.index}]: ${s.reason}`);
  if (r.skipped.length > SHOWN_SKIPS) lines.push(`... ${r.skipped.length - SHOWN_SKIPS} more skipped records (--json lists them all)`);
  const warnings = r.warnings ?? [];
  for (const w of warnings.slice(0, SHOWN_SKIPS)) lines.push(`warning: ${w.message}`);
  if (warnings.length > SHOWN_SKIPS) lines.push(`... ${warnings.length - SHOWN_SKIPS} more warnings (--json lists them)`);
  // File names, keys and reasons come from the input: escaped for the terminal.
  return printableLines(lines) + '\n';
}

/** What the source is, then the table of a backup import: its notes name every column not carried, its "not imported" lines every table. */
export function renderDatabaseImport(r: DatabaseImportResult): string {
  const head = `from ${r.source.path}: ${r.source.description}, into schema ${r.schema}`;
  return `${head}\n${renderImport(r)}`;
}

/** The backup password: --password, else --ask-password's prompt, else LEGADO_BACKUP_PASSWORD, else none (the app's default key). */
async function backupPassword(io: CliIo, flags: ImportFlags): Promise<string | undefined> {
  if (flags.password !== undefined && flags.askPassword) throw new UsageError('--password and --ask-password: give one');
  if (flags.password !== undefined) return flags.password;
  if (flags.askPassword) return askSecret(io, 'Backup password: ', `set ${BACKUP_PASSWORD_ENV}, or run on a terminal to be asked`);
  return secretFromEnv(io, BACKUP_PASSWORD_ENV);
}
