import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { SQLITE_COMPANIONS, writeFileSafely } from '../../fs/safe-write.js';
import { openStore } from '../../store/open.js';
import { NEWEST_VERSION, OLDEST_VERSION, schemas } from '../../schema/index.js';
import { forceOption, parseSchemaOption } from '../exit.js';

export function registerInit(program: Command, io: CliRun): void {
  program
    .command('init')
    .description('create a new, empty store file (an existing file is refused unless --force)')
    .argument('<file>', 'the database file to create')
    .option('--schema <version>', `schema version, ${OLDEST_VERSION} to ${NEWEST_VERSION} (the app's main line)`, String(NEWEST_VERSION))
    .addOption(forceOption('an existing file'))
    .action((file: string, opts: { schema: string; force?: boolean }) => {
      const version = parseSchemaOption(opts.schema);
      writeFileSafely(file, (temp) => openStore(temp, { schema: version }).close(), {
        overwrite: opts.force,
        purpose: 'a new store',
        companions: SQLITE_COMPANIONS,
      });
      io.stdout.write(`created ${file} at schema ${version} (identity hash ${schemas[version].identityHash})\n`);
    });
}
