import type { Command } from 'commander';
import { inspectFile } from '../../store/open.js';
import { EXIT } from '../exit.js';
import { renderInspection } from '../report.js';

export function registerVerify(program: Command): void {
  program
    .command('verify')
    .description('check the file against its schema version; exit 1 and list the differences when it does not match')
    .argument('<file>', 'a store file')
    .option('--json', 'print JSON')
    .action((file: string, opts: { json?: boolean }) => {
      const r = inspectFile(file);
      const { rows: _rows, ...result } = r;
      process.stdout.write(opts.json ? JSON.stringify(result, null, 2) + '\n' : renderInspection(r, false));
      if (!r.ok) process.exitCode = EXIT.failure;
    });
}
