// `legado-store search <store> <keyword>`: the app's search across book sources. Every hit is
// stored in searchBooks as the app stores it; the list printed is the app's merged order.
import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { toJson } from '../../inspect/format.js';
import { UnknownSourceError } from '../../errors.js';
import type { BookSource } from '../../sources/engine/types.js';
import { SOURCE_TIMEOUT_MS, searchSources, type SourceSearch } from '../../sources/shelf/tasks.js';
import type { AnyStore } from '../../store/store.js';
import { EXIT, UsageError } from '../exit.js';
import { errorJson } from '../errors.js';
import { openForWrite } from '../open-store.js';
import { printable } from '../printable.js';
import { ALLOW_PRIVATE_OPTION, allowPrivateHosts, cliEngine, type CliEngine } from '../source-engine.js';

interface Flags {
  source: string[];
  json?: boolean;
  precision?: boolean;
  concurrency?: string;
  sourceTimeout?: string;
  allowPrivateHosts?: boolean;
}

const collect = (value: string, list: string[]): string[] => [...list, value];

/** A positive whole number option. */
export function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * The sources asked for (each must be in the store and readable), else every enabled source with
 * a search URL, in customOrder; an enabled source whose row cannot be read is that source's
 * failure, and the others are searched.
 */
function chosenSources(store: AnyStore, engine: CliEngine, urls: readonly string[]): { sources: BookSource[]; unreadable: SourceSearch[] } {
  if (urls.length > 0) {
    const missing = urls.filter((u) => engine.source(u) === undefined);
    if (missing.length) throw new UnknownSourceError('book_sources', missing);
    return { sources: urls.map((u) => engine.source(u)!), unreadable: [] };
  }
  const sources: BookSource[] = [];
  const unreadable: SourceSearch[] = [];
  for (const r of store.bookSources.enabled()) {
    if (String(r.searchUrl ?? '').trim() === '') continue;
    try {
      sources.push(engine.source(r.bookSourceUrl)!);
    } catch (error) {
      unreadable.push({ source: r.bookSourceUrl, name: r.bookSourceName, hits: 0, error });
    }
  }
  return { sources, unreadable };
}

const failureLine = (s: SourceSearch): string => {
  const e = errorJson(s.error);
  return `legado-store: ${s.name} (${s.source}): ${e.code}: ${printable(e.message.replace(/\s*\n\s*/g, ' '))}\n`;
};

export function registerSearch(program: Command, io: CliRun): void {
  program
    .command('search')
    .description('search the enabled book sources (or the --source ones) as the app does: hits stored in searchBooks, printed merged by name and author')
    .argument('<store>', 'the store file')
    .argument('<keyword>', 'what to search for')
    .option('--source <url>', 'search this source (its bookSourceUrl); repeatable; default: every enabled source with a search URL', collect, [])
    .option('--precision', "the app's precision search: only books whose name or author contains the keyword")
    .option('--concurrency <n>', 'sources searched at once', '8')
    .option('--source-timeout <ms>', "time one source's search may take (the app's 30,000 ms)", '30000')
    .option(...ALLOW_PRIVATE_OPTION)
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExample:\n  $ legado-store search legado.db 三体 --source https://www.example.com\n')
    .action(async (storePath: string, keyword: string, flags: Flags) => {
      if (keyword.trim() === '') throw new UsageError('<keyword> must not be empty');
      const concurrency = positiveInt(flags.concurrency, '--concurrency', 8);
      const sourceTimeoutMs = positiveInt(flags.sourceTimeout, '--source-timeout', SOURCE_TIMEOUT_MS);
      const store = openForWrite(storePath);
      const engine = cliEngine(store, { allowPrivateHosts: allowPrivateHosts(flags.allowPrivateHosts, io.env) });
      try {
        const { sources, unreadable } = chosenSources(store, engine, flags.source);
        const tried = sources.length + unreadable.length;
        if (tried === 0) throw new UsageError('no enabled source with a search URL in the store: name one with --source');
        const r = await searchSources(store, sources, keyword, engine, { concurrency, sourceTimeoutMs, ...(flags.precision ? { precision: true } : {}) });
        const all = [...r.sources, ...unreadable];
        const failed = all.filter((s) => s.error !== undefined);
        // The app keeps the keyword in its search history (SearchViewModel.saveSearchKey); not when every source failed.
        if (failed.length < tried) store.searchKeywords.recordUse(keyword);
        if (flags.json) {
          const sourcesOut = all.map((s) => (s.error === undefined ? s : { ...s, error: errorJson(s.error) }));
          io.stdout.write(toJson({ keyword, books: r.books, sources: sourcesOut, stored: r.stored }) + '\n');
        } else {
          for (const b of r.books) io.stdout.write(`${printable(b.name)}\t${printable(b.author)}\t${b.origins.length}\t${printable(b.bookUrl)}\n`);
          for (const s of failed) io.stderr.write(failureLine(s));
          io.stderr.write(`${r.books.length} books from ${tried - failed.length} of ${tried} sources; ${r.stored} rows stored in searchBooks\n`);
        }
        if (failed.length === tried) io.exitCode = EXIT.failure;
      } finally {
        engine.dispose();
        store.close();
      }
    });
}
