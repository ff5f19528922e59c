import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { exportBackup } from '../../node/backup-export.js';
import { openStore } from '../../store/open.js';
import { progressBar } from '../progress.js';

export function registerExport(program: Command, io: CliRun): void {
  program
    .command('export')
    .description('write a store as a Legado backup the app restores (a .zip, or a new folder of the same files)')
    .argument('<store>', 'the store file')
    .argument('<out>', 'out.zip, or a folder that does not exist yet (or is empty)')
    .option('--tables <tables>', 'comma-separated tables to write (table names, kinds or backup file names); all by default')
    .option('--force', 'replace an existing out (written to a temporary file first, then renamed over it)')
    .option(
      '--carry <backup>',
      'the original backup (zip or folder): carry its files that hold no table (config.xml, readConfig.json, themeConfig.json, ...) through unchanged',
    )
    .option('--json', 'print a machine-readable summary, no progress bar')
    .action(async (storePath: string, out: string, flags: { tables?: string; json?: boolean; force?: boolean; carry?: string }) => {
      const store = openStore(storePath, { create: false, readonly: true });
      const bar = progressBar(!flags.json, 'rows', io.stderr);
      try {
        const tables = flags.tables
          ?.split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const result = await exportBackup(store, out, {
          tables,
          overwrite: flags.force ?? false,
          ...(flags.carry !== undefined ? { carry: flags.carry } : {}),
          onProgress: (p) => bar.update(p.rows, p.totalRows, p.rows, p.file),
        });
        bar.stop();
        if (flags.json) {
          io.stdout.write(JSON.stringify(result, null, 2) + '\n');
        } else {
          const lines = result.files.map((f) => `${f.file.padEnd(22)} ${String(f.rows).padStart(7)} rows`);
          if (result.carried.length) lines.push(`carried unchanged: ${result.carried.join(', ')}`);
          lines.push(`wrote ${result.files.length + result.carried.length} file(s) to ${out}`);
          io.stdout.write(lines.join('\n') + '\n');
        }
      } finally {
        bar.stop();
        store.close();
      }
    });
}
