import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { inspectFile } from '../../store/open.js';
import { renderInspection } from '../report.js';

export function registerInfo(program: Command, io: CliRun): void {
  program
    .command('info')
    .description('show schema version, identity hash, structure check and rows per table (read-only)')
    .argument('<file>', 'a store file')
    .option('--json', 'print JSON')
    .action((file: string, opts: { json?: boolean }) => {
      const r = inspectFile(file);
      io.stdout.write(opts.json ? JSON.stringify(r, null, 2) + '\n' : renderInspection(r));
    });
}
