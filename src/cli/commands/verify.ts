import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { inspectFile } from '../../store/open.js';
import { EXIT } from '../exit.js';
import { renderInspection } from '../report.js';

export function registerVerify(program: Command, io: CliRun): void {
  program
    .command('verify')
    .description('check the file against its schema version and its pages (quick_check); exit 1 and list what differs or is damaged')
    .argument('<file>', 'a store file')
    .option(
      '--deep',
      "also check every index against its rows (integrity_check), rows whose parent is missing (foreign_key_check) and the app's own rules (blank keys, user group ids that are no single bit, old-format book types at 55+; books with group bits no group has, which the app keeps, as warnings); slower",
    )
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExamples:\n  $ legado-store verify legado.db\n  $ legado-store verify legado.db --deep --json\n')
    .action((file: string, opts: { json?: boolean; deep?: boolean }) => {
      const r = inspectFile(file, { check: opts.deep ? 'deep' : 'quick' });
      const { rows: _rows, ...result } = r;
      io.stdout.write(opts.json ? JSON.stringify(result, null, 2) + '\n' : renderInspection(r, false));
      if (!r.ok) io.exitCode = EXIT.failure;
    });
}
