import type { Command } from 'commander';
import { readOnlyQuery } from '../../inspect/query.js';
import { openStore } from '../../store/open.js';
import { rowFormat, writeRows } from '../rows-output.js';

export function registerQuery(program: Command): void {
  program
    .command('query')
    .description('run one read-only SQL statement on a store (writes are refused; reading cookie values or server configs only with --show-secrets)')
    .argument('<store>', 'the store file')
    .argument('<sql>', 'one SELECT (or WITH … SELECT, VALUES, EXPLAIN, a reading PRAGMA)')
    .option('--json', 'print a JSON array of objects (integers exact; a repeated column name gets :2, :3)')
    .option('--csv', 'print CSV (RFC 4180) with a header row')
    .option('--show-secrets', 'let the statement read cookie values and server configs (refused by default)')
    .addHelpText(
      'after',
      '\nExample:\n  $ legado-store query legado.db "SELECT name, author FROM books WHERE (\\"group\\" & 4) != 0 ORDER BY name"\n',
    )
    .action((storePath: string, sql: string, flags: { json?: boolean; csv?: boolean; showSecrets?: boolean }) => {
      const format = rowFormat(flags);
      const store = openStore(storePath, { create: false, readonly: true });
      try {
        const result = readOnlyQuery(store.db, sql, { showSecrets: flags.showSecrets ?? false, path: storePath });
        const seen = new Map<string, number>();
        const columns = result.columns.map((c) => {
          const n = (seen.get(c) ?? 0) + 1;
          seen.set(c, n);
          return n === 1 ? c : `${c}:${n}`;
        });
        writeRows(format, columns, result.rows);
      } finally {
        store.close();
      }
    });
}
