import type { Command } from 'commander';
import { LegadoStoreError, MigrationFailedError, SchemaMismatchError } from '../../errors.js';
import { migrate, type MigrateResult } from '../../migrate/migrate.js';
import { EXIT, UsageError } from '../exit.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('upgrade a schema-49 file to 62 as the app does, in one transaction; a 62 file is left alone')
    .argument('<file>', 'a store file')
    .option('--to <version>', 'target schema version (only 62: there is no downgrade)', '62')
    .option('--backup <path>', 'first write a consistent copy of the original here (must not exist)')
    .option('--json', 'print JSON')
    .action((file: string, opts: { to: string; backup?: string; json?: boolean }) => {
      if (opts.to !== '62') throw new UsageError(`--to must be 62 (migrate only upgrades; there is no downgrade), not ${JSON.stringify(opts.to)}`);
      let result: MigrateResult;
      try {
        result = migrate(file, { to: 62, ...(opts.backup !== undefined && { backup: opts.backup }) });
      } catch (e) {
        // Refused or rolled back: say why, list the differences, and leave with exit code 1.
        if (!(e instanceof LegadoStoreError)) throw e;
        const differences = e instanceof SchemaMismatchError || e instanceof MigrationFailedError ? e.differences : [];
        if (opts.json) {
          process.stdout.write(JSON.stringify({ ok: false, path: file, error: { code: e.code, message: e.message, differences } }, null, 2) + '\n');
        } else {
          // A mismatch's message joins its differences on one line; here they get one line each.
          const head = e instanceof SchemaMismatchError ? `${file}: structure does not match schema ${e.version}; nothing was changed:` : e.message;
          process.stderr.write(`legado-store: ${e.code}: ${head}\n`);
          for (const d of differences) process.stderr.write(`  - ${d.message}\n`);
        }
        process.exitCode = EXIT.failure;
        return;
      }
      process.stdout.write(opts.json ? JSON.stringify({ ok: true, ...result }, null, 2) + '\n' : render(result));
    });
}

function render(r: MigrateResult): string {
  if (r.status === 'current') return `${r.path} is already at schema ${r.to}; nothing to do\n`;
  const c = r.changes!;
  const lines = [
    `upgraded ${r.path} from schema ${r.from} to ${r.to} in ${r.durationMs.toFixed(0)} ms`,
    `  added columns:  ${c.addedColumns.join(', ') || '-'}`,
    `  rebuilt tables: ${c.rebuiltTables.join(', ') || '-'}`,
    `  created tables: ${c.createdTables.join(', ') || '-'}`,
    ...c.dataSteps.map((d) => `  ${d.name}: ${d.rowsChanged} row change(s)`),
  ];
  if (r.backup) lines.push(`  backup of the original: ${r.backup}`);
  return lines.join('\n') + '\n';
}
