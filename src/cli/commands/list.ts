import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { listRows } from '../../inspect/list.js';
import { openStore } from '../../store/open.js';
import { UsageError } from '../exit.js';
import { rowFormat, writeRows } from '../rows-output.js';

const collect = (v: string, all: string[]) => [...all, v];

export function registerList(program: Command, io: CliRun): void {
  program
    .command('list')
    .description('print rows of a table with the API types (booleans, exact 64-bit group masks); read-only')
    .argument('<store>', 'the store file')
    .argument('<table>', 'a table name (books, book_groups, book_sources, chapters, ...)')
    .option('--where <field=value>', 'only rows where the field has this value (also !=, >, >=, <, <=, ~ LIKE); repeatable', collect, [])
    .option('--order <field[:desc]>', 'order by these fields, comma-separated (default: the primary key)')
    .option('--limit <n>', 'at most n rows')
    .option('--fields <a,b>', 'only these fields, in this order')
    .option('--json', 'print a JSON array of objects (integers exact)')
    .option('--csv', 'print CSV (RFC 4180) with a header row')
    .option('--show-secrets', 'print cookie values and server configs (masked by default)')
    .addHelpText(
      'after',
      '\nExample:\n  $ legado-store list legado.db books --where canUpdate=true --order durChapterTime:desc --limit 10 --fields name,author,group\n',
    )
    .action(
      async (
        storePath: string,
        table: string,
        flags: { where: string[]; order?: string; limit?: string; fields?: string; json?: boolean; csv?: boolean; showSecrets?: boolean },
      ) => {
        const format = rowFormat(flags);
        if (flags.limit !== undefined && !/^\d+$/.test(flags.limit)) throw new UsageError(`--limit must be a whole number, not ${JSON.stringify(flags.limit)}`);
        const store = openStore(storePath, { create: false, readonly: true });
        try {
          const listing = listRows(store, table, {
            where: flags.where,
            ...(flags.order !== undefined ? { order: flags.order } : {}),
            ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}),
            ...(flags.fields !== undefined
              ? {
                  fields: flags.fields
                    .split(',')
                    .map((f) => f.trim())
                    .filter(Boolean),
                }
              : {}),
            showSecrets: flags.showSecrets ?? false,
          });
          const rows = (function* () {
            for (const r of listing.rows) yield listing.fields.map((f) => r[f]);
          })();
          await writeRows(io.stdout, format, listing.fields, rows);
        } finally {
          store.close();
        }
      },
    );
}
