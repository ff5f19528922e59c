// `legado-store webdav backup|list|restore|progress`: the store as one more device in the app's
// WebDAV folder. The password comes from LEGADO_WEBDAV_PASSWORD or a terminal prompt only.
import { Option, type Command } from 'commander';
import type { CliRun } from '../io.js';
import { openStore } from '../../store/open.js';
import { openForWrite, openOrCreateStore } from '../open-store.js';
import type { Store } from '../../store/store.js';
import type { SchemaVersion } from '../../schema/index.js';
import { webdavList, webdavSync } from '../../webdav/index.js';
import { checkConnection } from '../../webdav/client.js';
import type { WebDavOptions } from '../../webdav/sync.js';
import type { ProgressDirection, ProgressReport } from '../../webdav/progress.js';
import { EXIT, SIGNALS, signalExitCode, UsageError } from '../exit.js';
import { BACKUP_PASSWORD_ENV, secretFromEnv, secretFromEnvOrPrompt } from '../secret.js';
import { printable, printableLines } from '../printable.js';
import { parseSize, renderImport } from './import.js';

export const PASSWORD_ENV = 'LEGADO_WEBDAV_PASSWORD';

interface Flags {
  url: string;
  dir: string;
  user?: string;
  json?: boolean;
  maxListing?: string;
  maxDownload?: string;
  /** Only to refuse it with a pointer to PASSWORD_ENV. */
  password?: string | boolean;
}

export function registerWebDav(program: Command, io: CliRun): void {
  const webdav = program
    .command('webdav')
    .description(`sync with the app's WebDAV folder: backups and reading progress (password from ${PASSWORD_ENV} or a prompt)`)
    .addOption(passwordTrap())
    .hook('preSubcommand', (c) => refusePasswordFlag(c.opts().password));

  const common = (c: Command): Command =>
    c
      .requiredOption('--url <url>', "the WebDAV address, as in the app's settings (e.g. https://dav.jianguoyun.com/dav/)")
      .option('--dir <dir>', "the app's WebDAV sub-folder", 'legado')
      .option('--user <account>', `the account; the password is read from ${PASSWORD_ENV}, or asked on a terminal`)
      .option('--max-listing <size>', 'largest listing or progress file read into memory (default 16M)')
      .option('--max-download <size>', 'largest backup downloaded, streamed to disk (default 1G)')
      .option('--json', 'print the report as JSON')
      .addOption(passwordTrap());

  common(webdav.command('backup').description("upload a backup zip of the store, named as the app names today's backup").argument('<store>', 'the store file'))
    .option('--device <name>', "the app's device name: backup<date>-<name>.zip")
    .option('--force', 'replace a backup of the same name on the server')
    .action(async (path: string, flags: Flags & { device?: string; force?: boolean }) => {
      await withStore(io, path, 'read', flags, async (store, options) => {
        const r = await webdavSync(store, { ...options, device: flags.device }).backup({ overwrite: flags.force });
        if (flags.json) return r;
        return printableLines([
          `uploaded ${r.name} (${r.bytes} bytes, ${r.files.length} files)${r.replaced ? ', replacing the one there' : ''} to ${r.folder}`,
          ...(r.createdFolders.length ? [`created: ${r.createdFolders.join(', ')}`] : []),
          `${r.requests} requests`,
        ]);
      });
    });

  common(
    webdav
      .command('list')
      .description('the backups on the server, newest first (no store needed)')
      .argument('[store]', 'not read: a listing needs only the address and the account'),
  ).action(async (_path: string | undefined, flags: Flags) => {
    await connected(io, flags, async (options) => {
      const r = await webdavList(options);
      if (flags.json) return r;
      if (!r.backups.length) return `no backups in ${printable(r.folder)}`;
      // A loop, not Math.max(...backups): a folder of 125,000 files would overflow the stack.
      let width = 0;
      for (const b of r.backups) width = Math.max(width, String(b.size).length);
      // Names are the server's choice: escaped, so none can reach the terminal as a command.
      return printableLines(r.backups.map((b) => `${b.modified}  ${String(b.size).padStart(width)}  ${b.name}`));
    });
  });

  common(
    webdav
      .command('restore')
      .description('download the newest backup (or NAME) and import it (merge, one transaction)')
      .argument('<store>', 'the store file (created at the newest schema when missing)')
      .argument('[name]', 'the backup to restore'),
  ).action(async (path: string, name: string | undefined, flags: Flags) => {
    await withStore(
      io,
      path,
      'create',
      flags,
      async (store, options) => {
        const r = await webdavSync(store, options).restore(name, { password: secretFromEnv(io, BACKUP_PASSWORD_ENV) });
        return flags.json
          ? r
          : `${printable(`restored ${r.name} (${r.bytes} bytes) from ${r.folder}, ${r.requests} requests`)}\n${renderImport(r.import).trimEnd()}`;
        // Stopped before the import (which is synchronous: a signal waits for its end).
      },
      'interrupted: nothing stored',
    );
  });

  common(
    webdav
      .command('progress')
      .description('reading progress: pull further positions and push changed ones (both by default)')
      .argument('<store>', 'the store file'),
  )
    .option('--pull', 'only take positions from the server')
    .option('--push', 'only send positions to the server')
    .option('--force', 'send the positions read here even over a file further ahead, or one moved back elsewhere')
    .action(async (path: string, flags: Flags & { pull?: boolean; push?: boolean; force?: boolean }) => {
      if (flags.pull && flags.push) throw new UsageError('--pull and --push together are the default (both): give one or neither');
      const direction: ProgressDirection = flags.pull ? 'pull' : flags.push ? 'push' : 'both';
      await withStore(io, path, 'write', flags, async (store, options) => {
        const r = await webdavSync(store, options).progress({ direction, force: flags.force });
        return flags.json ? r : renderProgress(r);
      });
    });
}

/** Opens the store, then runs as `connected` does, and closes it. */
async function withStore(
  io: CliRun,
  path: string,
  mode: 'read' | 'create' | 'write',
  flags: Flags,
  run: (store: Store<SchemaVersion>, options: WebDavOptions) => Promise<unknown>,
  interrupted?: string,
): Promise<void> {
  const options = connection(flags);
  // A store written to is checked first (a restore's import checks its own).
  const store = (
    mode === 'write' ? openForWrite(path) : mode === 'create' ? openOrCreateStore(path).store : openStore(path, { create: false })
  ) as Store<SchemaVersion>;
  try {
    await connected(io, flags, (o) => run(store, o), options, interrupted);
  } finally {
    store.close();
  }
}

/** Asks for the password when there is an account, runs, prints. */
async function connected(
  io: CliRun,
  flags: Flags,
  run: (options: WebDavOptions) => Promise<unknown>,
  options = connection(flags),
  interrupted = 'interrupted',
): Promise<void> {
  const password = flags.user === undefined ? undefined : await secretFromEnvOrPrompt(io, PASSWORD_ENV, `WebDAV password for ${flags.user}: `);
  // Ctrl-C or SIGTERM stop the request under way (a download's temporary file goes with it) and
  // end the command with the signal's code. One that comes during an import (one synchronous
  // transaction) is answered once it is through: what it stored is then said.
  const stop = new AbortController();
  let signal: NodeJS.Signals | undefined;
  const onSignal = (s: NodeJS.Signals): void => {
    signal ??= s;
    stop.abort(new Error(`interrupted by ${s}`));
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  let out: unknown;
  try {
    out = await run({ ...options, password, signal: stop.signal });
  } catch (e) {
    if (signal === undefined) throw e;
    io.stderr.write(`legado-store: ${interrupted}\n`);
    io.exitCode = signalExitCode(signal);
    return;
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
  }
  io.stdout.write(typeof out === 'string' ? `${out}\n` : `${JSON.stringify(out, null, 2)}\n`);
  io.exitCode = EXIT.ok;
  if (signal !== undefined) {
    io.stderr.write('legado-store: interrupted after the command was through\n');
    io.exitCode = signalExitCode(signal);
  }
}

/** `--password`, hidden: taken only to be refused with a pointer to the variable (not a bare "unknown option"). */
const passwordTrap = (): Option => new Option('--password [value]').hideHelp();

function refusePasswordFlag(value: unknown): void {
  // Refused without repeating it: the value is a password typed where other users can read it.
  if (value !== undefined)
    throw new UsageError(
      `--password: a password is never taken from the command line (other users can read a process's arguments); set ${PASSWORD_ENV}, or run on a terminal to be asked`,
    );
}

/** The settings from the flags, all checked before anyone is asked for a password. */
function connection(flags: Flags): WebDavOptions {
  refusePasswordFlag(flags.password);
  const options = {
    url: flags.url,
    dir: flags.dir,
    user: flags.user,
    maxListingBytes: parseSize('--max-listing', flags.maxListing),
    maxDownloadBytes: parseSize('--max-download', flags.maxDownload),
  };
  checkConnection(options);
  return options;
}

const SHOWN = 20;

const at = (p: { durChapterIndex: number; durChapterPos: number }): string => `chapter ${p.durChapterIndex + 1} @${p.durChapterPos}`;

export function renderProgress(r: ProgressReport): string {
  const lines: string[] = [];
  for (const a of r.applied) lines.push(`applied  ${a.name} / ${a.author}: ${at(a.from)} -> ${at(a.to)}`);
  for (const p of r.pushed.slice(0, SHOWN)) lines.push(`pushed   ${p.name} / ${p.author}`);
  if (r.pushed.length > SHOWN) lines.push(`... ${r.pushed.length - SHOWN} more pushed (--json lists them all)`);
  for (const k of r.kept) lines.push(`kept     ${k.name} / ${k.author}: ${k.reason}`);
  for (const s of r.skipped.slice(0, SHOWN)) lines.push(`skipped  ${s.file}: ${s.reason}`);
  if (r.skipped.length > SHOWN) lines.push(`... ${r.skipped.length - SHOWN} more skipped (--json lists them all)`);
  lines.push(
    `${r.books} books, ${r.listed} files in ${r.folder}bookProgress/: ${r.downloaded} downloaded, ${r.applied.length} applied, ` +
      `${r.pushed.length} pushed, ${r.skipped.length} skipped; ${r.requests} requests (changes tracked in ${r.tracking})`,
  );
  return printableLines(lines);
}
