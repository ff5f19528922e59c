import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { toJson } from '../../inspect/format.js';
import { openForWrite } from '../open-store.js';

export function registerCache(program: Command, io: CliRun): void {
  const cache = program.command('cache').description('the expiring key/value cache');
  cache
    .command('purge')
    .description('delete expired cache entries, as the app does at every start (entries without a deadline stay)')
    .argument('<store>', 'the store file')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExample:\n  $ legado-store cache purge legado.db\n')
    .action((storePath: string, flags: { json?: boolean }) => {
      const store = openForWrite(storePath);
      try {
        const before = store.tables.caches.count();
        const deleted = store.cache.purgeExpired();
        io.stdout.write(
          flags.json
            ? toJson({ deleted, remaining: before - deleted }) + '\n'
            : `deleted ${deleted} expired entr${deleted === 1 ? 'y' : 'ies'}, ${before - deleted} left\n`,
        );
      } finally {
        store.close();
      }
    });
}
