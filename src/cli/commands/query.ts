import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { QueryTimeoutError } from '../../errors.js';
import { readOnlyQuery } from '../../inspect/query.js';
import { openStore } from '../../store/open.js';
import { UsageError } from '../exit.js';
import { rowFormat, writeRows } from '../rows-output.js';
import { inTimedChild, runWithTimeLimit, watchParent } from '../time-limit.js';

/** Seconds a query may run, output included, unless --timeout says otherwise. */
export const DEFAULT_QUERY_TIMEOUT = 60;

interface QueryFlags {
  json?: boolean;
  csv?: boolean;
  showSecrets?: boolean;
  timeout: string;
}

export function registerQuery(program: Command, io: CliRun): void {
  program
    .command('query')
    .description('run one read-only SQL statement on a store (writes are refused; reading cookie values or server configs only with --show-secrets)')
    .argument('<store>', 'the store file')
    .argument('<sql>', 'one SELECT (or WITH … SELECT, VALUES, EXPLAIN, a reading PRAGMA)')
    .option('--json', 'print a JSON array of objects (integers exact; a repeated column name gets :2, :3)')
    .option('--csv', 'print CSV (RFC 4180) with a header row')
    .option('--show-secrets', 'let the statement read cookie values and server configs (refused by default)')
    .option('--timeout <seconds>', 'stop the query after this many seconds, output included (0: no limit)', String(DEFAULT_QUERY_TIMEOUT))
    .addHelpText('after', '\nExample:\n  $ legado-store query legado.db "SELECT name, author FROM books WHERE (\\"group\\" & 4) != 0 ORDER BY name"\n')
    .action(async (storePath: string, sql: string, flags: QueryFlags) => {
      const format = rowFormat(flags);
      const seconds = Number(flags.timeout);
      if (!/^\d+(\.\d+)?$/.test(flags.timeout) || !Number.isFinite(seconds)) {
        throw new UsageError(`--timeout must be a number of seconds (0: no limit), not ${JSON.stringify(flags.timeout)}`);
      }
      // No limit: nothing to stop, so no child to run it in.
      if (inTimedChild(io)) watchParent(io);
      if (inTimedChild(io) || seconds === 0) return runQuery(io, storePath, sql, format, flags.showSecrets ?? false);
      const args = [
        'query',
        `--timeout=${flags.timeout}`,
        ...(flags.json ? ['--json'] : []),
        ...(flags.csv ? ['--csv'] : []),
        ...(flags.showSecrets ? ['--show-secrets'] : []),
        '--',
        storePath,
        sql,
      ];
      const outcome = await runWithTimeLimit(io, args, seconds * 1000, storePath);
      if (outcome.timedOut) throw new QueryTimeoutError(sql, seconds * 1000);
      io.exitCode = outcome.code;
    });
}

async function runQuery(io: CliRun, storePath: string, sql: string, format: ReturnType<typeof rowFormat>, showSecrets: boolean): Promise<void> {
  const store = openStore(storePath, { create: false, readonly: true });
  try {
    const result = readOnlyQuery(store.db, sql, { showSecrets, path: storePath });
    const seen = new Map<string, number>();
    const columns = result.columns.map((c) => {
      const n = (seen.get(c) ?? 0) + 1;
      seen.set(c, n);
      return n === 1 ? c : `${c}:${n}`;
    });
    await writeRows(io.stdout, format, columns, result.rows);
  } finally {
    store.close();
  }
}
