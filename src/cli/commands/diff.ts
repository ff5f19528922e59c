import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { comparePaths, type PathDiff } from '../../node/compare.js';
import { cellText, toJson } from '../../inspect/format.js';
import { EXIT } from '../exit.js';

/** Rows listed per table and kind in the text output (JSON lists all). */
const SHOWN = 10;

export function registerDiff(program: Command, io: CliRun): void {
  program
    .command('diff')
    .description('compare two stores, two backups (zip or folder) or one of each, per table by primary key; exit 0 when equal, 1 when not')
    .argument('<a>', 'a store file, a backup .zip or a backup folder')
    .argument('<b>', 'the same kinds')
    .option('--tables <a,b>', 'only these tables')
    .option('--password <password>', 'the backup password, for an encrypted servers.json')
    .option('--show-secrets', 'show cookie values and server configs that differ (masked by default)')
    .option('--json', 'print JSON: every differing key and field')
    .addHelpText(
      'after',
      '\nExample:\n  $ legado-store diff backup-2026-01.zip backup-2026-02.zip\n  $ legado-store diff legado.db backup.zip --tables books,book_groups --json\n',
    )
    .action(async (a: string, b: string, flags: { tables?: string; password?: string; showSecrets?: boolean; json?: boolean }) => {
      const tables = flags.tables
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const diff = await comparePaths(a, b, {
        showSecrets: flags.showSecrets ?? false,
        ...(tables ? { tables } : {}),
        ...(flags.password !== undefined ? { password: flags.password } : {}),
      });
      io.stdout.write(flags.json ? toJson(diff) + '\n' : renderDiff(diff));
      io.exitCode = diff.equal ? EXIT.ok : EXIT.failure;
    });
}

const keyText = (k: unknown): string => (typeof k === 'object' && k !== null ? toJson(k, false) : cellText(k));

function renderDiff(d: PathDiff): string {
  const { a, b } = d;
  const lines = [`a: ${a.path} (${a.kind}, schema ${a.version})`, `b: ${b.path} (${b.kind}, schema ${b.version})`];
  for (const s of [a, b])
    if (s.skippedRecords) lines.push(`note: ${s.skippedRecords} record(s) of ${s.path} could not be read and are not compared (see legado-store import)`);
  if (d.notInBackups.length) lines.push(`not compared (never in a backup): ${d.notInBackups.join(', ')}`);
  if (d.tablesOnlyInA.length) lines.push(`tables only in a: ${d.tablesOnlyInA.join(', ')}`);
  if (d.tablesOnlyInB.length) lines.push(`tables only in b: ${d.tablesOnlyInB.join(', ')}`);
  const list = (label: string, items: readonly string[]) => {
    for (const x of items.slice(0, SHOWN)) lines.push(`    ${label} ${x}`);
    if (items.length > SHOWN) lines.push(`    … and ${items.length - SHOWN} more (--json lists all)`);
  };
  for (const t of d.tables) {
    const differs = t.onlyInA.length + t.onlyInB.length + t.changed.length;
    if (t.fieldsOnlyInA.length || t.fieldsOnlyInB.length) {
      lines.push(`  ${t.table}: fields not compared: ${[...t.fieldsOnlyInA.map((f) => `${f} (a)`), ...t.fieldsOnlyInB.map((f) => `${f} (b)`)].join(', ')}`);
    }
    if (!differs) continue;
    lines.push(`${t.table}: ${t.onlyInA.length} only in a, ${t.onlyInB.length} only in b, ${t.changed.length} changed, ${t.same} same`);
    list('-', t.onlyInA.map(keyText));
    list('+', t.onlyInB.map(keyText));
    list(
      '~',
      t.changed.map((c) => `${keyText(c.key)}: ${c.fields.map((f) => `${f.field} ${short(f.a)} -> ${short(f.b)}`).join(', ')}`),
    );
  }
  lines.push(d.equal ? 'equal' : 'different');
  return lines.join('\n') + '\n';
}

function short(v: unknown): string {
  const t = typeof v === 'string' ? JSON.stringify(v) : cellText(v);
  return t.length > 40 ? t.slice(0, 39) + '…' : t;
}
