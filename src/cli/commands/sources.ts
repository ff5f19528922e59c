import { existsSync } from 'node:fs';
import type { CliRun } from '../io.js';
import type { Command } from 'commander';
import {
  applyDedupe,
  findDuplicateSources,
  keptEntries,
  readSourceFile,
  storeSources,
  writeSources,
  type DedupeReport,
  type SourceEntry,
} from '../../node/dedupe.js';
import { setSourcesEnabled } from '../../curate/sources.js';
import { FileExistsError } from '../../errors.js';
import { toJson } from '../../inspect/format.js';
import { inputKind } from '../../node/sides.js';
import { openStore } from '../../store/open.js';
import { openForWrite } from '../open-store.js';
import { NEWEST_VERSION, type SchemaVersion } from '../../schema/index.js';
import { UsageError } from '../exit.js';
import { registerSourcesCheck } from './sources-check.js';

const collect = (v: string, all: string[]) => [...all, v];

export function registerSources(program: Command, io: CliRun): void {
  const sources = program.command('sources').description('book sources: find duplicates, enable or disable');

  sources
    .command('dedupe')
    .description('list book sources that are the same source twice (URL trimmed, trailing / dropped, scheme and host case); changes nothing unless asked')
    .argument('<input>', 'a store file, or a JSON file of book sources')
    .option('--apply', 'delete the duplicates from the store, in one transaction (books of a deleted one move to the kept one)')
    .option('--write <out.json>', 'write the sources without the duplicates to a new JSON file the app imports')
    .option('--force', 'with --write, replace an existing file')
    .option('--list', 'with --apply or --write, also list every duplicate set (listed anyway without them)')
    .option('--json', 'print JSON (every set included)')
    .addHelpText(
      'after',
      '\nThe one kept of each set: a URL with no white space around it, then the newest lastUpdateTime, then the one with more rules, then the first.\n\nExample:\n  $ legado-store sources dedupe bookSource.json --write bookSource.dedup.json\n  $ legado-store sources dedupe legado.db --apply\n',
    )
    .action((input: string, flags: { apply?: boolean; write?: string; force?: boolean; list?: boolean; json?: boolean }) => {
      if (flags.force && flags.write === undefined) throw new UsageError('--force only goes with --write');
      if (flags.write !== undefined && existsSync(flags.write) && !flags.force) {
        throw new FileExistsError(flags.write, 'a source list');
      }
      const kind = inputKind(input);
      const isStore = kind === 'store';
      if (kind === 'folder' || kind === 'zip') throw new UsageError(`${input} is a backup: give a store, or the backup's bookSource.json`);
      if (flags.apply && !isStore) throw new UsageError('--apply changes a store; for a file use --write <out.json>');
      let entries: SourceEntry[];
      let skipped = 0;
      let keptAsGiven: Readonly<Record<string, number>> = {};
      let version: SchemaVersion = NEWEST_VERSION;
      let report: DedupeReport;
      let applied: { deleted: number; booksRepointed: number } | undefined;
      if (isStore) {
        const store = flags.apply ? openForWrite(input) : openStore(input, { create: false, readonly: true });
        try {
          entries = storeSources(store);
          version = store.version;
          report = findDuplicateSources(entries);
          if (flags.apply) applied = applyDedupe(store, report);
        } finally {
          store.close();
        }
      } else {
        const file = readSourceFile(input);
        entries = file.entries;
        skipped = file.skipped;
        keptAsGiven = file.keptAsGiven;
        report = findDuplicateSources(entries);
      }
      let written: { path: string; sources: number } | undefined;
      if (flags.write !== undefined) {
        written = { path: flags.write, sources: writeSources(flags.write, keptEntries(entries, report), { overwrite: flags.force ?? false, version }) };
      }
      if (flags.json) {
        io.stdout.write(
          toJson({ input, ...report, skippedRecords: skipped, keptAsGiven, ...(applied ? { applied } : {}), ...(written ? { written } : {}) }) + '\n',
        );
        return;
      }
      const lines: string[] = [];
      // A change prints what it did; the sets (hundreds of lines in a large collection) only when asked.
      const listSets = flags.list || (!flags.apply && flags.write === undefined);
      for (const s of listSets ? report.sets : []) {
        lines.push(`${s.normalizedUrl}`);
        lines.push(`  keep ${JSON.stringify(s.keep.url)} ${s.keep.name} (updated ${s.keep.lastUpdateTime}, ${s.keep.rules} rules)`);
        for (const d of s.drop) lines.push(`  drop ${JSON.stringify(d.url)} ${d.name} (updated ${d.lastUpdateTime}, ${d.rules} rules)`);
      }
      lines.push(
        `${report.sources} source(s), ${report.sets.length} duplicate set(s), ${report.dropped} to drop${skipped ? `; ${skipped} record(s) not usable as sources` : ''}`,
      );
      if (applied) lines.push(`deleted ${applied.deleted} source(s); ${applied.booksRepointed} book(s) moved to the kept source`);
      if (written) lines.push(`wrote ${written.sources} source(s) to ${written.path}`);
      const asGiven = Object.entries(keptAsGiven);
      if (written && asGiven.length) {
        lines.push(`kept as given (no column of book_sources at schema ${version}): ${asGiven.map(([f, n]) => `${f} ×${n}`).join(', ')}`);
      }
      if (!listSets && report.sets.length) lines.push('--list shows every set (--json too)');
      if (!applied && !written && report.dropped) lines.push('nothing changed (--apply to delete from the store, --write <out.json> for a new file)');
      io.stdout.write(lines.join('\n') + '\n');
    });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    sources
      .command(name)
      .description(`${name} book sources by group or by URL, in one transaction`)
      .argument('<store>', 'the store file')
      .option('--group <group>', `${name} every source in this group`)
      .option('--url <url>', `${name} this source (repeatable)`, collect, [])
      .option('--json', 'print JSON')
      .addHelpText(
        'after',
        `\nExample:\n  $ legado-store sources ${name} legado.db --group 精品\n  $ legado-store sources ${name} legado.db --url https://a.example --url https://b.example\n`,
      )
      .action((storePath: string, flags: { group?: string; url: string[]; json?: boolean }) => {
        if (flags.group === undefined && flags.url.length === 0) throw new UsageError(`sources ${name} needs --group or --url`);
        const store = openForWrite(storePath);
        try {
          const r = setSourcesEnabled(store, { ...(flags.group !== undefined ? { group: flags.group } : {}), urls: flags.url }, enabled);
          io.stdout.write(flags.json ? toJson({ enabled, ...r }) + '\n' : `${name}d ${r.changed} of ${r.sources.length} source(s) (the others already were)\n`);
        } finally {
          store.close();
        }
      });
  }

  registerSourcesCheck(sources, io);
}
