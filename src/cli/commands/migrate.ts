import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { LegadoStoreError, MigrationFailedError, SchemaMismatchError } from '../../errors.js';
import { migrate, type MigrateResult } from '../../migrate/migrate.js';
import { NEWEST_VERSION, SUPPORTED_VERSIONS, isSupportedVersion } from '../../schema/index.js';
import { EXIT, forceOption, UsageError } from '../exit.js';

export function registerMigrate(program: Command, io: CliRun): void {
  program
    .command('migrate')
    .description("upgrade a store file to a later schema version step by step, as the app's migrations do, in one transaction")
    .argument('<file>', 'a store file')
    .option(
      '--to <version>',
      `target schema version, above the file's, up to ${NEWEST_VERSION} (default ${NEWEST_VERSION}, the newest: what the app upgrades its own file to)`,
    )
    .option('--backup <path>', 'first write a consistent copy of the original here (must not exist, unless --force)')
    .addOption(forceOption('an existing --backup file'))
    .option('--json', 'print JSON')
    .action((file: string, opts: { to?: string; backup?: string; force?: boolean; json?: boolean }) => {
      const to = opts.to === undefined ? undefined : Number(opts.to);
      if (to !== undefined && !(/^\d+$/.test(opts.to!) && isSupportedVersion(to))) {
        throw new UsageError(`--to must be a schema version the store knows (${SUPPORTED_VERSIONS.join(', ')}), not ${JSON.stringify(opts.to)}`);
      }
      let result: MigrateResult;
      try {
        result = migrate(file, { ...(to !== undefined && { to }), ...(opts.backup !== undefined && { backup: opts.backup, overwrite: opts.force ?? false }) });
      } catch (e) {
        // Refused or rolled back: say why, list the differences, and leave with exit code 1.
        if (!(e instanceof LegadoStoreError)) throw e;
        const differences = e instanceof SchemaMismatchError || e instanceof MigrationFailedError ? e.differences : [];
        if (opts.json) {
          io.stdout.write(JSON.stringify({ ok: false, path: file, error: { code: e.code, message: e.message, differences } }, null, 2) + '\n');
        } else {
          // A mismatch's message joins its differences on one line; here they get one line each.
          const head = e instanceof SchemaMismatchError ? `${file}: structure does not match schema ${e.version}; nothing was changed:` : e.message;
          io.stderr.write(`legado-store: ${e.code}: ${head}\n`);
          for (const d of differences) io.stderr.write(`  - ${d.message}\n`);
        }
        io.exitCode = EXIT.failure;
        return;
      }
      io.stdout.write(opts.json ? JSON.stringify({ ok: true, ...result }, null, 2) + '\n' : render(result));
    });
}

function render(r: MigrateResult): string {
  if (r.status === 'current') return `${r.path} is already at schema ${r.from}; nothing to do\n`;
  const c = r.changes!;
  const lines = [`upgraded ${r.path} from schema ${r.from} to ${r.to} in ${r.durationMs.toFixed(0)} ms, ${c.steps.length} step(s)`];
  for (const s of c.steps) {
    const did = [
      ...s.addedColumns.map((x) => `+${x}`),
      ...s.createdTables.map((x) => `new ${x}`),
      ...s.rebuiltTables.map((x) => `rebuilt ${x}`),
      ...s.createdViews.map((x) => `view ${x}`),
      ...s.dataSteps.map((d) => `${d.name} (${d.rowsChanged} row change(s))`),
    ];
    lines.push(`  ${s.from} -> ${s.to}: ${did.join(', ') || 'no change'}`);
  }
  if (r.backup) lines.push(`  backup of the original: ${r.backup}`);
  return lines.join('\n') + '\n';
}
