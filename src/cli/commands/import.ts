import type { Command } from 'commander';
import { importInputs } from '../../backup/import.js';
import type { ImportResult } from '../../backup/report.js';
import { openStore } from '../../store/open.js';
import { backupFileByKind, KIND_NAMES } from '../../backup/file-map.js';
import { EXIT, parseSchemaOption, UsageError } from '../exit.js';
import { progressBar } from '../progress.js';

interface ImportFlags {
  kind?: string;
  strict?: boolean;
  json?: boolean;
  password?: string;
  schema?: string;
}

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import a Legado backup (zip or folder) or rule files (book sources, RSS sources, replace rules, ...) into a store')
    .argument('<store>', 'the store file (created at schema 62 when missing)')
    .argument('<inputs...>', 'a backup zip, a backup folder, or JSON rule files')
    .option('--kind <kind>', 'what the rule files hold (bookSource, rssSource, replaceRule, txtTocRule, httpTTS, dictRule, ...); detected from the keys when left out')
    .option('--strict', 'all or nothing: fail, storing nothing, if any record cannot be stored')
    .option('--password <password>', 'the backup password, for an encrypted servers.json')
    .option('--schema <version>', 'schema version for a new store, 62 or 49')
    .option('--json', 'print a machine-readable summary, no progress bar')
    .action(async (storePath: string, inputs: string[], flags: ImportFlags) => {
      const schema = flags.schema === undefined ? undefined : parseSchemaOption(flags.schema);
      const url = inputs.find((i) => /^[a-z][a-z0-9+.-]*:\/\//i.test(i));
      if (url) throw new UsageError(`${url} is a remote URL: download it first and import the downloaded file`);
      if (flags.kind !== undefined && !backupFileByKind(flags.kind)) {
        throw new UsageError(`--kind ${flags.kind} is not a kind; one of ${KIND_NAMES.join(', ')}`);
      }
      const store = openStore(storePath, schema === undefined ? {} : { schema });
      const bar = progressBar(!flags.json, 'records');
      let total = 0;
      try {
        const result = await importInputs(store, inputs, {
          kind: flags.kind,
          strict: flags.strict,
          password: flags.password,
          onProgress: (p) => bar.update(p.bytes, (total = p.totalBytes), p.records, p.file),
        });
        bar.update(total, total, result.totals.read, 'done');
        bar.stop();
        process.stdout.write(flags.json ? JSON.stringify(result, null, 2) + '\n' : renderImport(result));
      } catch (e) {
        bar.stop();
        throw e;
      } finally {
        store.close();
      }
      process.exitCode = EXIT.ok;
    });
}

const SHOWN_SKIPS = 20;

export function renderImport(r: ImportResult): string {
  const lines: string[] = [];
  const kinds = Object.values(r.kinds);
  if (kinds.length) {
    const head = ['kind', 'read', 'stored', 'updated', 'duplicates', 'skipped'];
    const rows = kinds.map((k) => [k.kind, k.read, k.stored, k.updated, k.duplicates, k.skipped].map(String));
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    for (const row of [head, ...rows]) lines.push(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  } else {
    lines.push('nothing imported');
  }
  for (const k of kinds) {
    const notes: string[] = [];
    if (k.legacyConverted) notes.push(`${k.legacyConverted} converted from the 2.0 format`);
    if (k.replaced) notes.push(`${k.replaced} replaced (same name and author under another bookUrl)`);
    if (k.unchanged) notes.push(`${k.unchanged} kept (the store's row wins)`);
    const dropped = Object.entries(k.droppedFields);
    if (dropped.length) notes.push(`dropped (no column at schema ${r.schema}): ${dropped.map(([f, n]) => `${f} ×${n}`).join(', ')}`);
    const unknown = Object.entries(k.unknownFields);
    if (unknown.length) notes.push(`ignored unknown fields: ${unknown.map(([f, n]) => `${f} ×${n}`).join(', ')}`);
    if (notes.length) lines.push(`${k.kind}: ${notes.join('; ')}`);
  }
  for (const f of r.files) if (f.status !== 'imported') lines.push(`not imported: ${f.file} (${f.reason ?? f.status})`);
  for (const s of r.skipped.slice(0, SHOWN_SKIPS)) lines.push(`skipped: ${s.file} [${s.index}]: ${s.reason}`);
  if (r.skipped.length > SHOWN_SKIPS) lines.push(`... ${r.skipped.length - SHOWN_SKIPS} more skipped records (--json lists them all)`);
  return lines.join('\n') + '\n';
}
