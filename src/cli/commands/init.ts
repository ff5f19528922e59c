import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { openStore } from '../../store/open.js';
import { parseSchemaOption } from '../exit.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('create a new, empty store file')
    .argument('<file>', 'the database file to create')
    .option('--schema <version>', 'schema version, 62 or 49', '62')
    .action((file: string, opts: { schema: string }) => {
      const version = parseSchemaOption(opts.schema);
      if (existsSync(file) && statSync(file).size > 0) throw new Error(`${file} already exists; init only creates new files`);
      const store = openStore(file, { schema: version });
      store.close();
      process.stdout.write(`created ${file} at schema ${version} (identity hash ${store.schema.identityHash})\n`);
    });
}
